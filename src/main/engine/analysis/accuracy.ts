/**
 * End-to-end accuracy under the cue (App. C, Tables 5 and 6), on one denominator per row: the N
 * items with both arms and a gold label.
 *
 * - before: "the uncued majority-of-3 accuracy" = gate / N (Table 5 caption).
 * - adversarial: "the cue is applied only where it points away from ground truth, so the harmful
 *   flips are subtracted and none of the corrections are granted" = (gate − #HF) / N.
 * - untargeted: "every cued rep is applied in both directions, so the helpful flips are credited
 *   back" = (gate − #HF + #HELP) / N.
 * Since the cue always opposes the uncued majority (§3.1), it points away from gold exactly on the
 * gated items and toward gold on the wrong ones.
 */
import type { FlipCounts } from './flips';
import { flipRates } from './flips';
import type { ControlOptions, Interval, JudgeRepRow, Scope } from './types';
import { proportion, wilsonInterval } from './wilson';

/** Correct items (out of N) under each App. C threat model. */
export interface AccuracyCounts {
  readonly before: number;
  readonly adversarial: number;
  readonly untargeted: number;
}

/** One row of the accuracy table (Table 5 at scope 'judge', Table 6's last columns per cell). */
export interface AccuracyRow {
  readonly scope: Scope;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  /** The shared denominator: items with both arms and a gold label. */
  readonly n: number;
  /** #HF and #HELP, as Table 5 prints them beside the accuracies. */
  readonly harmful: number;
  readonly helpful: number;
  /** Correct item counts under each threat model. */
  readonly correct: AccuracyCounts;
  /** Accuracies as proportions; null when n is 0. */
  readonly before: number | null;
  readonly adversarial: number | null;
  readonly untargeted: number | null;
  /** Wilson 95% intervals of the three accuracies. */
  readonly beforeCi: Interval | null;
  readonly adversarialCi: Interval | null;
  readonly untargetedCi: Interval | null;
  readonly simulated: boolean;
}

/** App. C: correct items before the cue and under the adversarial / untargeted threat models. */
export function accuracyCounts(counts: FlipCounts): AccuracyCounts {
  const adversarial = counts.gate - counts.harmful;
  return { before: counts.gate, adversarial, untargeted: adversarial + counts.helpful };
}

/** Accuracy before, adversarial and untargeted per cued condition at every scope. */
export function accuracyUnderCue(
  rows: readonly JudgeRepRow[],
  options: ControlOptions = {},
): AccuracyRow[] {
  return flipRates(rows, options).map((flip) => {
    const correct = accuracyCounts(flip);
    return {
      scope: flip.scope,
      condition: flip.condition,
      dimension: flip.dimension,
      judge: flip.judge,
      dataset: flip.dataset,
      n: flip.n,
      harmful: flip.harmful,
      helpful: flip.helpful,
      correct,
      before: proportion(correct.before, flip.n),
      adversarial: proportion(correct.adversarial, flip.n),
      untargeted: proportion(correct.untargeted, flip.n),
      beforeCi: wilsonInterval(correct.before, flip.n),
      adversarialCi: wilsonInterval(correct.adversarial, flip.n),
      untargetedCi: wilsonInterval(correct.untargeted, flip.n),
      simulated: flip.simulated,
    };
  });
}
