/**
 * Equivalence: "about the same", not merely "no difference found". Two one-sided tests (TOST,
 * Schuirmann 1987) at α = 0.05 declare two rates equivalent within a margin δ when both
 * "difference ≤ −δ" and "difference ≥ δ" are rejected, which is the same as the 90% interval of
 * the difference lying inside (−δ, δ). The interval is Newcombe's (method 10; paired for arms on
 * the same items, unpaired for different items), the one the tables print at 95%. For claims like
 * "the null-source cue is about the same as the placebo" (§3.2) or "this mitigation leaves the
 * bias where it was" (§3.4). The margin is the user's: what difference would not matter.
 */
import {
  newcombePaired,
  newcombeUnpaired,
  type Sample,
  type StudyPairCounts,
} from './proportion-difference';
import type { Interval } from './types';

/** z of a one-sided 5% test (the 90% two-sided interval TOST reads). */
export const Z_TOST_05 = 1.6448536269514722;

/** A TOST verdict. */
export interface Equivalence {
  /** The margin δ (a proportion): differences within ±δ count as the same. */
  readonly margin: number;
  /** The 90% Newcombe interval of B − A. */
  readonly interval: Interval;
  /** True when the interval lies strictly inside (−δ, δ). */
  readonly equivalent: boolean;
}

function verdict(interval: Interval | null, margin: number): Equivalence | null {
  if (!(margin > 0 && margin < 1))
    throw new RangeError(`The margin must lie in (0, 1), got ${margin}.`);
  if (!interval) return null;
  return { margin, interval, equivalent: interval.low > -margin && interval.high < margin };
}

/** TOST for pB − pA on independent samples; null when either is empty. */
export function unpairedEquivalence(a: Sample, b: Sample, margin: number): Equivalence | null {
  return verdict(newcombeUnpaired(a, b, Z_TOST_05), margin);
}

/** TOST for pB − pA on paired outcomes (the same items in both arms); null with no items. */
export function pairedEquivalence(counts: StudyPairCounts, margin: number): Equivalence | null {
  return verdict(newcombePaired(counts, Z_TOST_05), margin);
}
