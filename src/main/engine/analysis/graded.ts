/**
 * Graded dimensions (App. G): no gold label, so the reference is the judge's own uncued mean.
 * "A rep counts as flipped when its cued verdict moves past a threshold from that item's uncued
 * mean: ... for the 1 – 100 graded dimensions, a deviation of at least 10 points"
 * (GRADED_FLIP_THRESHOLD_POINTS; configurable, as a study's `gradedFlipThreshold`). Reps are not
 * majority-collapsed (App. H: "every repetition that flipped is classified individually").
 *
 * Our rules: only reps with a finite score take part; the uncued mean is over the control reps
 * with a score for the same item × judge × dimension; cued reps of an item with no such control
 * rep are excluded and counted (`noControl`).
 */
import { GRADED_FLIP_THRESHOLD_POINTS } from '../paper';
import { anySimulated, compositeKey, groupBy, scopedGroups, sumOf } from './group';
import { rowFacts } from './row-facts';
import type { ControlOptions, CueDirection, Interval, JudgeRepRow, Scope } from './types';
import { UNCUED_CONDITION } from './types';
import { proportion, wilsonInterval } from './wilson';

/** Options: control arm and the flip threshold in points (App. G: 10). */
export interface GradedOptions extends ControlOptions {
  readonly threshold?: number;
}

/** One cued rep measured against its item's uncued mean. */
export interface GradedRepFlip {
  readonly judge: string;
  readonly dataset: string;
  readonly itemId: string;
  readonly dimension: string;
  readonly condition: string;
  readonly cueDirection: CueDirection | null;
  readonly rep: number;
  readonly score: number;
  readonly uncuedMean: number;
  /** score − uncued mean (negative = the judge marked the work down). */
  readonly shift: number;
  /** |shift| ≥ threshold. */
  readonly flipped: boolean;
  readonly simulated: boolean;
}

/** Graded flip rate over reps at one scope. */
export interface GradedRow {
  readonly scope: Scope;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  /** Cued reps measured. */
  readonly n: number;
  readonly flipped: number;
  readonly flipRate: number | null;
  readonly flipCi: Interval | null;
  /** Mean signed shift in points. */
  readonly meanShift: number | null;
  readonly threshold: number;
  readonly simulated: boolean;
}

function hasScore(row: JudgeRepRow): row is JudgeRepRow & { readonly score: number } {
  return typeof row.score === 'number' && Number.isFinite(row.score);
}

function resolveThreshold(options: GradedOptions): number {
  const threshold = options.threshold ?? GRADED_FLIP_THRESHOLD_POINTS;
  if (!(threshold > 0)) throw new RangeError('The graded flip threshold must be positive.');
  return threshold;
}

/** Every scored cued rep against its item's uncued mean; also counts reps with no control. */
export function gradedRepFlips(
  rows: readonly JudgeRepRow[],
  options: GradedOptions = {},
): { readonly reps: GradedRepFlip[]; readonly noControl: number } {
  const control = options.controlCondition ?? UNCUED_CONDITION;
  const threshold = resolveThreshold(options);
  // Most studies score nothing: the row facts say so without a pass over the study.
  const scored = rowFacts(rows).scoreDimensions.length === 0 ? [] : rows.filter(hasScore);
  const item = (row: JudgeRepRow) =>
    compositeKey(row.judge, row.dataset, row.itemId, row.dimension);
  const controlScores = groupBy(
    scored.filter((row) => row.condition === control),
    item,
  );
  const reps: GradedRepFlip[] = [];
  let noControl = 0;
  for (const row of scored) {
    // A mitigated control (`uncued+MITIGATION`, §3.4) is a control, never a cued rep.
    if (row.condition === control || row.condition.startsWith(`${control}+`)) continue;
    const reference = controlScores.get(item(row));
    if (!reference) {
      noControl += 1;
      continue;
    }
    const uncuedMean = sumOf(reference, (rep) => rep.score) / reference.length;
    const shift = row.score - uncuedMean;
    reps.push({
      judge: row.judge,
      dataset: row.dataset,
      itemId: row.itemId,
      dimension: row.dimension,
      condition: row.condition,
      cueDirection: row.cueDirection,
      rep: row.rep,
      score: row.score,
      uncuedMean,
      shift,
      flipped: Math.abs(shift) >= threshold,
      simulated: row.simulated || reference.some((rep) => rep.simulated),
    });
  }
  return { reps, noControl };
}

/** Graded flip rates per cued condition × dimension at every scope (rep-level, App. G / H). */
export function gradedFlipRates(
  rows: readonly JudgeRepRow[],
  options: GradedOptions = {},
): GradedRow[] {
  const threshold = resolveThreshold(options);
  return scopedGroups(gradedRepFlips(rows, options).reps).map(({ items, ...where }) => {
    const flipped = items.filter((rep) => rep.flipped).length;
    return {
      ...where,
      n: items.length,
      flipped,
      flipRate: proportion(flipped, items.length),
      flipCi: wilsonInterval(flipped, items.length),
      meanShift: items.length === 0 ? null : sumOf(items, (rep) => rep.shift) / items.length,
      threshold,
      simulated: anySimulated(items),
    };
  });
}
