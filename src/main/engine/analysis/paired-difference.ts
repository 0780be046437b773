/**
 * The difference of two proportions measured on the same items, with Newcombe's hybrid score
 * interval for paired data (Newcombe 1998, "Improved confidence intervals for the difference
 * between binomial proportions based on paired data", Statistics in Medicine 17:2635–2650,
 * method 10). It combines the two marginal Wilson intervals, allowing for their correlation, so it
 * stays inside [−1, 1] and behaves at 0 and n where the Wald interval does not. Used for "flips
 * beyond placebo": a cued arm's harmful-flip rate minus the placebo arm's on the same items.
 */
import type { Interval } from './types';
import { wilsonInterval, Z_95 } from './wilson';

/** A paired 2 × 2 table: a = both, b = first only, c = second only, d = neither. */
export interface PairedCounts {
  readonly both: number;
  readonly firstOnly: number;
  readonly secondOnly: number;
  readonly neither: number;
}

/** The paired difference of proportions (first − second) and its interval. */
export interface PairedDifference {
  readonly n: number;
  readonly first: number;
  readonly second: number;
  readonly difference: number;
  readonly interval: Interval;
}

/**
 * Newcombe's method 10; null when there are no pairs. φ is the correlation of the two
 * indicators, corrected toward 0 as in the paper (ad − bc reduced by n/2 when positive and
 * larger than n/2, zeroed when positive and smaller, kept when negative) and taken as 0 when a
 * margin is empty.
 */
export function newcombePairedDifference(counts: PairedCounts, z = Z_95): PairedDifference | null {
  const { both: a, firstOnly: b, secondOnly: c, neither: d } = counts;
  for (const value of [a, b, c, d]) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(
        `Paired counts must be whole and non-negative, got ${a}, ${b}, ${c}, ${d}.`,
      );
    }
  }
  const n = a + b + c + d;
  if (n === 0) return null;
  const firstSuccesses = a + b;
  const secondSuccesses = a + c;
  const first = firstSuccesses / n;
  const second = secondSuccesses / n;
  const firstCi = wilsonInterval(firstSuccesses, n, z) as Interval;
  const secondCi = wilsonInterval(secondSuccesses, n, z) as Interval;
  const margins = (a + b) * (c + d) * (a + c) * (b + d);
  const cross = a * d - b * c;
  const corrected = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  const phi = margins === 0 ? 0 : corrected / Math.sqrt(margins);
  const difference = first - second;
  const lowFirst = first - firstCi.low;
  const highFirst = firstCi.high - first;
  const lowSecond = second - secondCi.low;
  const highSecond = secondCi.high - second;
  const below = Math.sqrt(
    Math.max(0, lowFirst ** 2 - 2 * phi * lowFirst * highSecond + highSecond ** 2),
  );
  const above = Math.sqrt(
    Math.max(0, highFirst ** 2 - 2 * phi * highFirst * lowSecond + lowSecond ** 2),
  );
  return {
    n,
    first,
    second,
    difference,
    interval: { low: Math.max(-1, difference - below), high: Math.min(1, difference + above) },
  };
}
