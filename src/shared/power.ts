/**
 * Power before launch: the smallest change in harmful-flip rate a design can detect, and the
 * items a named change needs. Shared by `cuelab estimate` and the Builder's estimate panel.
 *
 * The comparison is two arms' harmful-flip rates pooled over reps (e.g. a cue before and after a
 * mitigation, Table 1), each on the items the uncued judge got right (the gate, §3.1). Reps of
 * one item are correlated, so the reps count for less than their number: the design effect is
 * 1 + (reps − 1) · ICC (Kish), and the effective sample per arm is gated items × reps / design
 * effect. The test is the two-sided two-proportion z-test at that effective size. The two arms
 * are treated as independent, which is conservative when they share items (the paired design
 * gains from the correlation between arms).
 */

/** z for a two-sided α = 0.05. */
export const Z_TWO_SIDED_05 = 1.959963984540054;
/** z for 80% power. */
export const Z_POWER_80 = 0.8416212335729143;

/**
 * Table 5's uncued ("before") accuracy averaged over the paper's four judges (76.3, 74.7, 72.1,
 * 70.5%): the share of items that enter the harmful-flip gate when nothing better is known.
 */
export const PAPER_UNCUED_ACCURACY = (0.763 + 0.747 + 0.721 + 0.705) / 4;

/** What a power calculation needs. */
export interface PowerDesign {
  /** Items in the study (per judge). */
  readonly items: number;
  /** Reps per item and arm. */
  readonly reps: number;
  /** Harmful-flip rate of the arm compared against (the "before" rate). */
  readonly baseline: number;
  /** Share of items the uncued judge gets right (the gate). */
  readonly uncuedAccuracy: number;
  /** Intra-item correlation of reps' flips (0: independent reps, 1: reps always agree). */
  readonly icc: number;
}

/** The design effect of `reps` correlated reps per item. */
export function designEffect(reps: number, icc: number): number {
  return 1 + (reps - 1) * icc;
}

/** Effective independent observations per arm. */
export function effectiveSize(design: PowerDesign): number {
  const gated = design.items * design.uncuedAccuracy;
  return (gated * design.reps) / designEffect(design.reps, design.icc);
}

/** The other arm's rate for a change of `difference`: a drop, or a rise when it cannot drop. */
function comparedRate(baseline: number, difference: number): number {
  return baseline - difference >= 0 ? baseline - difference : baseline + difference;
}

/** Effective size per arm needed to detect `difference` from `baseline` (α 0.05, 80% power). */
export function requiredEffectiveSize(baseline: number, difference: number): number {
  const other = comparedRate(baseline, difference);
  const pooled = (baseline + other) / 2;
  const numerator =
    Z_TWO_SIDED_05 * Math.sqrt(2 * pooled * (1 - pooled)) +
    Z_POWER_80 * Math.sqrt(baseline * (1 - baseline) + other * (1 - other));
  return (numerator / difference) ** 2;
}

/** Checks a design's numbers, naming the first that is out of range. */
export function designProblem(design: PowerDesign): string | null {
  if (!(Number.isInteger(design.items) && design.items > 0))
    return 'items must be a whole number above 0';
  if (!(Number.isInteger(design.reps) && design.reps > 0))
    return 'reps must be a whole number above 0';
  if (!(design.baseline > 0 && design.baseline < 1))
    return 'the baseline rate must lie strictly between 0 and 1';
  if (!(design.uncuedAccuracy > 0 && design.uncuedAccuracy <= 1))
    return 'the uncued accuracy must lie in (0, 1]';
  if (!(design.icc >= 0 && design.icc <= 1)) return 'the ICC must lie in [0, 1]';
  return null;
}

/**
 * The minimum detectable difference (a proportion) at α = 0.05 and 80% power, or null when
 * not even the largest possible change is detectable with this design.
 */
export function minimumDetectableDifference(design: PowerDesign): number | null {
  const problem = designProblem(design);
  if (problem) throw new RangeError(problem);
  const available = effectiveSize(design);
  const largest = Math.max(design.baseline, 1 - design.baseline);
  if (requiredEffectiveSize(design.baseline, largest) > available) return null;
  let low = 0;
  let high = largest;
  // The required size falls as the difference grows: bisect for where it meets the design's.
  for (let step = 0; step < 60; step += 1) {
    const middle = (low + high) / 2;
    if (requiredEffectiveSize(design.baseline, middle) > available) low = middle;
    else high = middle;
  }
  return high;
}

/** Items (per judge) needed to detect `difference` with the design's reps, gate and ICC. */
export function itemsNeeded(design: Omit<PowerDesign, 'items'>, difference: number): number {
  const problem = designProblem({ ...design, items: 1 });
  if (problem) throw new RangeError(problem);
  if (!(difference > 0 && difference <= Math.max(design.baseline, 1 - design.baseline)))
    throw new RangeError('the difference must be above 0 and reachable from the baseline');
  const perArm = requiredEffectiveSize(design.baseline, difference);
  return Math.ceil(
    (perArm * designEffect(design.reps, design.icc)) / (design.reps * design.uncuedAccuracy),
  );
}
