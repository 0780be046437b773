/**
 * Compare: the study on screen (B) beside another study (A), as `cuelab compare A B` prints it:
 * the change in harmful and helpful flip rates per judge × condition with its 95% interval,
 * design (paired or unpaired) and test, then the items whose outcome changed. Both tables
 * export as the CLI's CSV; the differences are also drawn as a forest plot that exports as PNG
 * or SVG (DifferenceCard).
 */
import { useEffect, useRef, useState } from 'react';
import type { LabResponse, StudySummary } from '../../../shared/lab-api';
import { labClientFor } from '../../lib/engine-client';
import { saveCsv } from '../../lib/export/export-figure';
import type { Loadable } from '../../lib/loadable';
import { useLab } from '../../store';
import { DifferenceCard } from './DifferenceCard';
import { CardsCompared } from './CardsCompared';
import { useCardTolerance } from '../../charts/card-tolerance';
import './compare.css';

type Comparison = LabResponse<'compareStudies'>;
type Table = Comparison['rates'] | Comparison['changedItems'];
type Row = Table['rows'][number];

function cellText(value: string | number | null | undefined, unit: string | undefined): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (unit === 'p') return value < 0.001 ? '<0.001' : value.toFixed(3);
  return unit === '%' || unit === 'pp' ? value.toFixed(1) : String(value);
}

/** The judge cell: one id when both studies' judges match by id, else "A's → B's". */
function judgeText(row: Row): string {
  const { judgeA: a, judgeB: b } = row;
  return a === b ? a : `${a} → ${b}`;
}

/**
 * A report-shaped table as HTML: judge A and B print as one column, an interval's low and high
 * columns as one "[low, high]" (the CSV keeps every column).
 */
function CompareTable({ table, testId }: { table: Table; testId: string }) {
  // Judge, condition and dimension share one stacked cell, so the long names wrap in one
  // column and the drawer needs no sideways scroll at 1024 px.
  const stacked = ['judgeA', 'condition', 'dimension'];
  const columns = table.columns.filter(
    (column) =>
      column.interval !== 'high' &&
      column.key !== 'judgeB' &&
      !stacked.slice(1).includes(column.key),
  );
  const label = (key: string, text: string) =>
    key === 'judgeA'
      ? 'judge · condition · dimension'
      : key.endsWith('CiLow')
        ? text.replace(/ low$/, '')
        : text;
  const text = (row: Row, column: Table['columns'][number]) => {
    if (column.key === 'judgeA') return judgeText(row);
    if (column.interval !== 'low') return cellText(row[column.key], column.unit);
    const high = row[column.key.replace(/Low$/, 'High')];
    return `[${cellText(row[column.key], column.unit)}, ${cellText(high, column.unit)}]`;
  };
  return (
    <div className="compare-scroll">
      <table className="data-table compare-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col">
                {label(column.key, column.label)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, index) => (
            <tr key={index}>
              {columns.map((column) => (
                <td
                  key={column.key}
                  data-numeric={
                    (column.unit !== undefined && column.interval === undefined) || undefined
                  }
                >
                  {column.key === 'judgeA' ? (
                    <span className="compare-names">
                      <span>{judgeText(row)}</span>
                      <span>{cellText(row.condition, undefined)}</span>
                      <span className="muted">{cellText(row.dimension, undefined)}</span>
                    </span>
                  ) : (
                    text(row, column)
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {table.rows.length === 0 && <p className="muted">(no rows)</p>}
    </div>
  );
}

/** A table's title with its CSV button. */
function TableHeading(props: { title: string; testId: string; onExport: () => void }) {
  return (
    <div className="compare-actions">
      <h3>{props.title}</h3>
      <button type="button" className="button" data-testid={props.testId} onClick={props.onExport}>
        CSV
      </button>
    </div>
  );
}

/** The panel comparing `studyId` (B) with a study the user picks (A). */
export function ComparePanel({
  studyId,
  studies,
  onClose,
}: {
  studyId: string;
  studies: StudySummary[];
  onClose: () => void;
}) {
  const address = useLab((state) => state.address);
  const others = studies.filter((study) => study.id !== studyId);
  const [baseline, setBaseline] = useState(others[0]?.id ?? '');
  // The answer for the study it was asked about; another pick shows "Comparing…" until its own.
  const [answer, setAnswer] = useState<{ baseline: string; result: Loadable<Comparison> } | null>(
    null,
  );
  const comparison: Loadable<Comparison> | null = !baseline
    ? null
    : answer?.baseline === baseline
      ? answer.result
      : { state: 'loading' };
  const pickRef = useRef<HTMLSelectElement>(null);
  const [tolerancePp] = useCardTolerance();

  useEffect(() => {
    pickRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  useEffect(() => {
    if (!address || !baseline) return;
    let current = true;
    void labClientFor(address)
      .compareStudies({ studyA: baseline, studyB: studyId, tolerancePp })
      .then((result) => {
        if (!current) return;
        setAnswer({
          baseline,
          result: result.ok
            ? { state: 'loaded', value: result.value }
            : { state: 'failed', error: result.error.message },
        });
      });
    return () => {
      current = false;
    };
  }, [address, baseline, studyId, tolerancePp]);

  async function exportCsv(part: 'rates' | 'items' | 'cards') {
    if (!address) return;
    const request = {
      studyA: baseline,
      studyB: studyId,
      format: 'csv' as const,
      part,
      tolerancePp,
    };
    const result = await labClientFor(address).formatComparison(request);
    if (!result.ok) return;
    await saveCsv('Export comparison as CSV', result.value.fileName, result.value.text);
  }

  const value = comparison?.state === 'loaded' ? comparison.value : null;
  return (
    <aside
      className="reps-panel compare-panel"
      aria-label="Compare two studies"
      data-testid="compare-panel"
    >
      <header className="reps-panel-head">
        <label className="rep-filter">
          <span>Compare this study (B) with study A</span>
          <select
            ref={pickRef}
            value={baseline}
            onChange={(event) => setBaseline(event.target.value)}
          >
            {others.map((study) => (
              <option key={study.id} value={study.id}>
                {study.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </header>
      {others.length === 0 && <p className="muted">There is no other study to compare with.</p>}
      {comparison?.state === 'loading' && <p className="muted">Comparing…</p>}
      {comparison?.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not compare: {comparison.error}
        </div>
      )}
      {value && (
        <div className="compare-body">
          <h2>
            {value.studyB.name} − {value.studyA.name}
          </h2>
          {value.simulated && (
            <p className="muted">
              <span className="badge badge-simulated">SIMULATED</span> synthetic-judge data in at
              least one study
            </p>
          )}
          <TableHeading
            title={value.rates.title}
            testId="compare-export-csv"
            onExport={() => void exportCsv('rates')}
          />
          <CompareTable table={value.rates} testId="compare-rates" />
          <ul className="compare-notes">
            {value.rates.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
          <DifferenceCard comparison={value} />
          <TableHeading
            title={value.changedItems.title}
            testId="compare-export-items-csv"
            onExport={() => void exportCsv('items')}
          />
          <CompareTable table={value.changedItems} testId="compare-items" />
          {value.cards.rows.length > 0 && (
            <>
              <TableHeading
                title={value.cards.title}
                testId="compare-export-cards-csv"
                onExport={() => void exportCsv('cards')}
              />
              <CardsCompared cards={value.cards} />
              <ul className="compare-notes">
                {value.cards.notes.map((note) => (
                  <li key={note}>{note}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </aside>
  );
}
