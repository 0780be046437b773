/**
 * Power after a study: what a comparison that found nothing could have found. For a paired
 * before/after comparison (Table 1, §3.4) the realized minimum detectable effect is the MDD of
 * the exact McNemar test (src/shared/power.ts) on the items the comparison actually used, from
 * the before rate it actually saw, so a null result reads "no drop larger than X" or, when not
 * even removing every harmful flip was detectable, "underpowered".
 *
 * The ICC the estimate assumed is checked against the study's own uncued reps: the one-way
 * ANOVA intraclass correlation of rep correctness within items (reps of one item judged with no
 * cue, §3.1's control arm).
 */
import { compositeKey, groupBy } from './group';
import type { JudgeRepRow } from './types';
import { UNCUED_CONDITION } from './types';
import { minimumDetectableDifference } from '../../../shared/power';

/**
 * One-way ANOVA ICC of uncued rep correctness (verdict = gold) within item × judge × dimension,
 * clipped to [0, 1]; null with fewer than two items of two or more valid reps.
 */
export function uncuedRepIcc(
  rows: readonly JudgeRepRow[],
  control: string = UNCUED_CONDITION,
): number | null {
  const groups = [
    ...groupBy(
      rows.filter((row) => row.condition === control && row.verdict !== null && row.gold !== null),
      (row) => compositeKey(row.judge, row.dataset, row.itemId, row.dimension),
    ).values(),
  ]
    .map((reps) => reps.map((rep) => (rep.verdict === rep.gold ? 1 : 0)))
    .filter((values) => values.length >= 2);
  const total = groups.reduce((sum, values) => sum + values.length, 0);
  const k = groups.length;
  if (k < 2 || total <= k) return null;
  const grand = groups.flat().reduce((sum: number, value) => sum + value, 0) / total;
  let between = 0;
  let within = 0;
  for (const values of groups) {
    const mean = values.reduce((sum: number, value) => sum + value, 0) / values.length;
    between += values.length * (mean - grand) ** 2;
    for (const value of values) within += (value - mean) ** 2;
  }
  const msb = between / (k - 1);
  const msw = within / (total - k);
  const n0 =
    (total - groups.reduce((sum, values) => sum + values.length ** 2, 0) / total) / (k - 1);
  const denominator = msb + (n0 - 1) * msw;
  if (denominator <= 0) return msb > 0 ? 1 : null;
  return Math.min(1, Math.max(0, (msb - msw) / denominator));
}

/** What a paired comparison could have detected. */
export interface RealizedPower {
  /** Realized MDD (proportion) of the exact McNemar test; null when nothing was detectable. */
  readonly detectable: number | null;
  /** 'detected' (p < 0.05), 'no effect larger than X', or 'underpowered'. */
  readonly verdict: 'detected' | 'bounded' | 'underpowered';
}

/**
 * The realized MDD of a paired comparison on `items` items with before rate `before` and the
 * test's p-value (item-majority verdicts: reps are already folded into each item's verdict). Underpowered when even a drop to 0 (or the largest change) is not detectable.
 */
export function realizedPower(
  items: number,
  before: number | null,
  pValue: number | null,
): RealizedPower {
  if (items === 0 || before === null) return { detectable: null, verdict: 'underpowered' };
  // An observed 0 or 1 is not a rate to plan from: half an item keeps it inside (0, 1).
  const baseline = Math.min(1 - 0.5 / items, Math.max(0.5 / items, before));
  const detectable = minimumDetectableDifference({
    items,
    reps: 1,
    baseline,
    uncuedAccuracy: 1,
    icc: 0,
  });
  if (pValue !== null && pValue < 0.05) return { detectable, verdict: 'detected' };
  if (detectable === null || detectable > baseline) return { detectable, verdict: 'underpowered' };
  return { detectable, verdict: 'bounded' };
}

/** A realized-power cell: "detected", "no drop > 12.3 pp", or "underpowered". */
export function realizedPowerCell(power: RealizedPower): string {
  if (power.verdict === 'detected') return 'detected';
  if (power.verdict === 'underpowered' || power.detectable === null) return 'underpowered';
  return `no change > ${(power.detectable * 100).toFixed(1)} pp`;
}
