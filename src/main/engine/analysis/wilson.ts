/**
 * Proportions with Wilson score intervals, used for every flip rate and accuracy (Table 6 rates
 * rest on very different sample sizes, App. C: "the most extreme cells are also the least
 * precise", so each rate carries its interval).
 */
import type { Interval } from './types';

/** z for a two-sided 95% interval, as conventionally rounded. */
export const Z_95 = 1.96;

/** successes / trials, or null when there are no trials. */
export function proportion(successes: number, trials: number): number | null {
  return trials === 0 ? null : successes / trials;
}

/**
 * Wilson score interval for a binomial proportion (Wilson 1927); null when `trials` is 0.
 * Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 / n and n / n.
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Interval | null {
  if (trials === 0) return null;
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0) {
    throw new RangeError(`wilsonInterval needs whole counts, got ${successes}/${trials}`);
  }
  if (successes > trials) throw new RangeError(`${successes} successes exceed ${trials} trials`);
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return {
    low: successes === 0 ? 0 : Math.max(0, center - half),
    high: successes === trials ? 1 : Math.min(1, center + half),
  };
}
