/**
 * App. G graded flips from the `graded` table: per cued condition × judge, the share of cued
 * items whose 1–100 score moved at least the study's threshold from the item's uncued mean
 * toward the cue, with the harmful and helpful split against the dimension's consensus gold.
 */
import { countCell, numberCell, textCell, type ReportTableData } from '../table-values';

/** One bar: a condition × dimension for one judge (or all judges pooled). */
export interface GradedBar {
  readonly label: string;
  readonly detail: string;
  readonly condition: string;
  readonly judge: string;
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly n: number;
  readonly meanShift: number | null;
  /** Harmful flips among items whose cue points away from gold (HF %), and their gate. */
  readonly harmfulPct: number | null;
  readonly gate: number;
  /** Helpful flips among items whose cue points toward gold (HELP %), and how many. */
  readonly helpfulPct: number | null;
  readonly wrong: number;
}

/** The bars, judges pooled over datasets first, then everything pooled; and the threshold. */
export function gradedBars(table: ReportTableData | undefined): {
  bars: GradedBar[];
  threshold: number | null;
} {
  const rows = (table?.rows ?? []).filter(
    (row) => textCell(row, 'scope') === 'judge' || textCell(row, 'scope') === 'all',
  );
  const ordered = [
    ...rows.filter((row) => textCell(row, 'scope') === 'judge'),
    ...rows.filter((row) => textCell(row, 'scope') === 'all'),
  ];
  return {
    threshold: ordered.length ? numberCell(ordered[0] ?? {}, 'threshold') : null,
    bars: ordered.map((row) => {
      const judge = textCell(row, 'judge');
      return {
        label: judge === 'all' ? 'All judges' : judge,
        detail: `${textCell(row, 'condition')} · ${textCell(row, 'dimension')}`,
        condition: textCell(row, 'condition'),
        judge,
        value: numberCell(row, 'flipPct'),
        low: numberCell(row, 'flipCiLow'),
        high: numberCell(row, 'flipCiHigh'),
        n: countCell(row, 'n'),
        meanShift: numberCell(row, 'meanShift'),
        harmfulPct: numberCell(row, 'harmfulPct'),
        gate: countCell(row, 'gate'),
        helpfulPct: numberCell(row, 'helpfulPct'),
        wrong: countCell(row, 'wrong'),
      };
    }),
  };
}
