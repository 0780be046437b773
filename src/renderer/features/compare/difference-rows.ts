/**
 * The rows of the comparison's forest plot, read from the `compare` table the engine prints:
 * one per judge × condition × flip, with the B − A difference and its 95% interval in
 * percentage points, whether it is paired, and the items behind it.
 */
import type { LabResponse } from '../../../shared/lab-api';
import { formatInterval } from '../../charts/format';

type RatesTable = LabResponse<'compareStudies'>['rates'];

/** One row of the difference figure. */
export interface DifferenceRow {
  /** "judge · condition": the judge once when both studies name it alike, else "A → B". */
  label: string;
  /** "harmful flip · paired" and the dimension. */
  detail: string;
  flip: 'harmful' | 'helpful';
  paired: boolean;
  /** B − A in percentage points, its 95% interval; null when either rate is undefined. */
  difference: number | null;
  low: number | null;
  high: number | null;
  /** Items in the row: the shared items when paired, "A / B" when not. */
  count: string;
  /** The difference and interval as printed beside the row, e.g. "−25.0 [−61.2, 17.3]". */
  valueText: string;
}

/** "−25.0" with a true minus sign, "+50.0" for a gain, "—" for none. */
export function formatDifference(value: number | null): string {
  if (value === null) return '—';
  const text = Math.abs(value).toFixed(1);
  return value > 0 ? `+${text}` : value < 0 ? `\u2212${text}` : text;
}

/** The figure's rows, in the table's order. */
export function differenceRows(table: RatesTable): DifferenceRow[] {
  return table.rows.map((row) => {
    const { judgeA, judgeB, flip, difference } = row;
    const judge = judgeA === judgeB ? judgeA : `${judgeA} \u2192 ${judgeB}`;
    const paired = row.design === 'paired';
    const low = row.differenceCiLow;
    const high = row.differenceCiHigh;
    const itemsA = String(row.itemsA);
    const itemsB = String(row.itemsB);
    const interval = formatInterval(low, high).replace(/-/g, '\u2212');
    return {
      label: `${judge} · ${row.condition}`,
      detail: `${flip} flip · ${paired ? 'paired' : 'unpaired'} · ${row.dimension}`,
      flip,
      paired,
      difference,
      low,
      high,
      count: paired ? itemsA : `${itemsA} / ${itemsB}`,
      valueText: difference === null ? '—' : `${formatDifference(difference)} ${interval}`,
    };
  });
}

/** The x domain in percentage points: every interval and zero, widened to tens. */
export function differenceDomain(rows: readonly DifferenceRow[]): [number, number] {
  const ends = rows.flatMap((row) => [row.low, row.high, row.difference]);
  const values = ends.filter((value): value is number => value !== null);
  const min = Math.floor(Math.min(0, ...values) / 10) * 10;
  const max = Math.ceil(Math.max(0, ...values) / 10) * 10;
  return min === max ? [-10, 10] : [Math.max(-100, min), Math.min(100, max)];
}
