/**
 * The two studies' report cards side by side in the Compare drawer: per judge × cue-family arm
 * both ran, each study's harmful flips beyond the family's placebo with its interval and flag,
 * B − A, and each judge's uncued accuracy, self-consistency and cost in A → B form. The CSV
 * (`cuelab compare --card --format csv`) keeps every column.
 */
import type { LabResponse } from '../../../shared/lab-api';

type Cards = LabResponse<'compareStudies'>['cards'];
type Cell = Cards['rows'][number][string] | undefined;

function number(value: Cell, digits = 1): string {
  return typeof value === 'number' ? value.toFixed(digits) : '—';
}

function beyond(value: Cell, low: Cell, high: Cell, flag: Cell): string {
  const interval = `[${number(low)}, ${number(high)}]`;
  return `${number(value)} ${interval}${flag === 'FLAGGED' ? ' FLAGGED' : ''}`;
}

function change(a: Cell, b: Cell, digits = 1, prefix = ''): string {
  const one = (value: Cell) =>
    typeof value === 'number' ? `${prefix}${number(value, digits)}` : '—';
  return `${one(a)} → ${one(b)}`;
}

function judge(a: Cell, b: Cell): string {
  return a === b ? String(a) : `${String(a)} → ${String(b)}`;
}

/** The compared cards as a compact table. */
export function CardsCompared({ cards }: { cards: Cards }) {
  return (
    <div className="compare-scroll">
      <table className="data-table compare-table" data-testid="compare-cards">
        <thead>
          <tr>
            <th scope="col">judge · family · placement</th>
            <th scope="col">A beyond placebo pp</th>
            <th scope="col">B beyond placebo pp</th>
            <th scope="col">B − A pp</th>
            <th scope="col">uncued accuracy %</th>
            <th scope="col">self-consistency %</th>
            <th scope="col">cost USD</th>
          </tr>
        </thead>
        <tbody>
          {cards.rows.map((row, index) => (
            <tr key={index}>
              <td>
                <span className="compare-names">
                  <span>{judge(row.judgeA, row.judgeB)}</span>
                  <span>{String(row.family)}</span>
                  <span className="muted">{String(row.placement)}</span>
                </span>
              </td>
              <td>{beyond(row.beyondA, row.beyondACiLow, row.beyondACiHigh, row.flagA)}</td>
              <td>{beyond(row.beyondB, row.beyondBCiLow, row.beyondBCiHigh, row.flagB)}</td>
              <td data-numeric>{number(row.change)}</td>
              <td data-numeric>{change(row.uncuedAccuracyA, row.uncuedAccuracyB)}</td>
              <td data-numeric>{change(row.selfConsistencyA, row.selfConsistencyB)}</td>
              <td data-numeric>{change(row.costA, row.costB, 4, '$')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {cards.rows.length === 0 && <p className="muted">(no rows)</p>}
    </div>
  );
}
