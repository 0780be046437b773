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

/**
 * Wilson's interval for a rate `p` observed on an effective sample of `n` (not necessarily whole,
 * e.g. reps divided by a design effect); null when n is not positive. At p = 0 the low end is 0,
 * at p = 1 the high end is 1, so the interval never has zero width.
 */
export function wilsonAtEffectiveSize(p: number, n: number, z = Z_95): Interval | null {
  if (!(n > 0) || !(p >= 0 && p <= 1)) return null;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    low: p === 0 ? 0 : Math.max(0, center - half),
    high: p === 1 ? 1 : Math.min(1, center + half),
  };
}

/** The standard normal quantile for a two-sided `confidence` (bisection on the CDF). */
export function zForConfidence(confidence: number): number {
  if (Math.abs(confidence - 0.95) < 1e-12) return Z_95;
  const target = 1 - (1 - confidence) / 2;
  let low = 0;
  let high = 10;
  for (let step = 0; step < 80; step += 1) {
    const middle = (low + high) / 2;
    if (normalCdf(middle) < target) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** Φ(x) from erfc (Numerical Recipes' Chebyshev fit, relative error below 1.2e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + z / 2);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}
