/**
 * The report card from the `card` table: one bar per judge × cue-family arm, its harmful flip
 * rate at rep level with the item-clustered interval, and beside it the flips beyond the
 * family's placebo, the flag, uncued accuracy and self-consistency (tooltip and detail line).
 */
import { cardFlag } from '../../../shared/card-tolerance';
import type { ReportTableOf } from '../table-values';

/** One bar of the card. */
export interface CardBar {
  readonly label: string;
  readonly detail: string;
  readonly condition: string;
  readonly judge: string;
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly n: number;
  readonly beyond: number | null;
  readonly beyondLow: number | null;
  readonly beyondHigh: number | null;
  readonly helpfulBeyond: number | null;
  /** Harmful flips beyond the uncued repeat (pp) and its interval; null without a repeat. */
  readonly beyondRepeat: number | null;
  readonly beyondRepeatLow: number | null;
  readonly beyondRepeatHigh: number | null;
  readonly severityPct: number | null;
  readonly leniencyPct: number | null;
  readonly flagged: boolean;
  readonly placebo: string | null;
  readonly uncuedAccuracyPct: number | null;
  readonly selfConsistencyPct: number | null;
}

function signed(value: number | null): string {
  if (value === null) return 'no placebo';
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(0)} pp beyond placebo`;
}

/**
 * The bars, judge by judge (several judges side by side in one list), families in order; each
 * flag read at `tolerancePp` (the card's Tolerance field) by the rule the engine's CSV uses.
 */
export function cardBars(table: ReportTableOf<'card'> | undefined, tolerancePp: number): CardBar[] {
  return (table?.rows ?? []).map((row) => {
    const flag = cardFlag(row, tolerancePp);
    return {
      label: row.family,
      detail: `${row.judge} · ${row.placement} · ${signed(row.harmfulBeyondPlaceboPp)}${flag === 'FLAGGED' ? ' · FLAGGED' : ''}`,
      condition: row.condition,
      judge: row.judge,
      value: row.harmfulRepPct,
      low: row.harmfulRepCiLow,
      high: row.harmfulRepCiHigh,
      n: row.gate,
      beyond: row.harmfulBeyondPlaceboPp,
      beyondLow: row.harmfulBeyondPlaceboCiLow,
      beyondHigh: row.harmfulBeyondPlaceboCiHigh,
      helpfulBeyond: row.helpfulBeyondPlaceboPp,
      beyondRepeat: row.harmfulBeyondRepeatPp,
      beyondRepeatLow: row.harmfulBeyondRepeatCiLow,
      beyondRepeatHigh: row.harmfulBeyondRepeatCiHigh,
      severityPct: row.severityPct,
      leniencyPct: row.leniencyPct,
      flagged: flag === 'FLAGGED',
      placebo: row.placebo,
      uncuedAccuracyPct: row.uncuedAccuracyPct,
      selfConsistencyPct: row.selfConsistencyPct,
    };
  });
}

/** What the card says beside each judge: uncued accuracy, self-consistency across reps, cost. */
export interface CardJudge {
  readonly judge: string;
  readonly uncuedAccuracyPct: number | null;
  readonly selfConsistencyPct: number | null;
  readonly costUsd: number | null;
}

/** One entry per judge of the card, in the card's order. */
export function cardJudges(table: ReportTableOf<'card'> | undefined): CardJudge[] {
  const judges = new Map<string, CardJudge>();
  for (const row of table?.rows ?? [])
    if (!judges.has(row.judge))
      judges.set(row.judge, {
        judge: row.judge,
        uncuedAccuracyPct: row.uncuedAccuracyPct,
        selfConsistencyPct: row.selfConsistencyPct,
        costUsd: row.judgeCostUsd,
      });
  return [...judges.values()];
}
