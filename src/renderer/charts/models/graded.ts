/**
 * App. G graded flips from the `graded` table: per cued condition × judge, the share of cued
 * items whose 1–100 score moved at least the study's threshold from the item's uncued mean
 * toward the cue, with the harmful and helpful split against the dimension's consensus gold.
 */
import type { ReportTableOf } from '../table-values';

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
export function gradedBars(table: ReportTableOf<'graded'> | undefined): {
  bars: GradedBar[];
  threshold: number | null;
} {
  const rows = table?.rows ?? [];
  const ordered = [
    ...rows.filter((row) => row.scope === 'judge'),
    ...rows.filter((row) => row.pooled),
  ];
  return {
    threshold: ordered[0]?.threshold ?? null,
    bars: ordered.map((row) => {
      const judge = row.judge;
      return {
        label: row.pooled ? 'All judges' : judge,
        detail: `${row.condition} · ${row.dimension}`,
        condition: row.condition,
        judge,
        value: row.flipPct,
        low: row.flipCiLow,
        high: row.flipCiHigh,
        n: row.n,
        meanShift: row.meanShift,
        harmfulPct: row.harmfulPct,
        gate: row.gate,
        helpfulPct: row.helpfulPct,
        wrong: row.wrong,
      };
    }),
  };
}
