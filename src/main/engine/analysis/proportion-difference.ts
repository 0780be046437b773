/**
 * The difference of two proportions with its 95% interval and test, for comparing one flip rate
 * across two studies. Intervals are Newcombe's hybrid score intervals built from the Wilson
 * intervals of each rate (wilson.ts): method 10 of Newcombe (1998a) for independent samples, and
 * method 10 of Newcombe (1998b) for paired samples, which corrects for the correlation of the
 * two outcomes on the same items. Tests: Fisher's exact test (independent) and the exact McNemar
 * test (paired, mcnemar.ts).
 */
import { newcombePairedDifference } from './paired-difference';
import type { Interval } from './types';
import { Z_95, wilsonInterval } from './wilson';

/** successes / trials of one sample. */
export interface Sample {
  readonly successes: number;
  readonly trials: number;
}

/**
 * The paired 2×2 table of two outcomes on the same items: `both` yes in A and B, `onlyA` yes
 * in A only, `onlyB` yes in B only, `neither`.
 */
export interface StudyPairCounts {
  readonly both: number;
  readonly onlyA: number;
  readonly onlyB: number;
  readonly neither: number;
}

/**
 * Newcombe's interval for pB − pA from independent samples (Newcombe 1998a, method 10); null
 * when either sample is empty.
 */
export function newcombeUnpaired(a: Sample, b: Sample, z = Z_95): Interval | null {
  const intervalA = wilsonInterval(a.successes, a.trials, z);
  const intervalB = wilsonInterval(b.successes, b.trials, z);
  if (!intervalA || !intervalB) return null;
  const rateA = a.successes / a.trials;
  const rateB = b.successes / b.trials;
  const difference = rateB - rateA;
  const below = Math.hypot(rateB - intervalB.low, intervalA.high - rateA);
  const above = Math.hypot(intervalB.high - rateB, rateA - intervalA.low);
  return { low: difference - below, high: difference + above };
}

/**
 * Newcombe's interval for pB − pA from paired outcomes (Newcombe 1998b, method 10); null when
 * there are no items. The one implementation is paired-difference.ts, with B as the first rate.
 */
export function newcombePaired(counts: StudyPairCounts, z = Z_95): Interval | null {
  const { both, onlyA, onlyB, neither } = counts;
  return (
    newcombePairedDifference({ both, firstOnly: onlyB, secondOnly: onlyA, neither }, z)?.interval ??
    null
  );
}

function logChoose(n: number, k: number): number {
  let total = 0;
  for (let index = 1; index <= k; index += 1) total += Math.log(n - k + index) - Math.log(index);
  return total;
}

/**
 * Two-sided Fisher's exact test of a = b for independent samples: the probability, with the
 * margins fixed, of every table no more likely than the one observed. 1 when a margin is 0.
 */
export function fisherExact(a: Sample, b: Sample): number {
  for (const sample of [a, b]) {
    const { successes, trials } = sample;
    if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0) {
      throw new RangeError(`fisherExact needs whole counts, got ${successes}/${trials}.`);
    }
    if (successes > trials) throw new RangeError(`${successes} successes exceed ${trials} trials.`);
  }
  const total = a.trials + b.trials;
  const successes = a.successes + b.successes;
  if (a.trials === 0 || b.trials === 0 || successes === 0 || successes === total) return 1;
  const denominator = logChoose(total, successes);
  const probability = (inA: number) =>
    Math.exp(logChoose(a.trials, inA) + logChoose(b.trials, successes - inA) - denominator);
  const observed = probability(a.successes);
  const least = Math.max(0, successes - b.trials);
  const most = Math.min(successes, a.trials);
  let pValue = 0;
  // The relative tolerance keeps tables exactly as likely as the observed one (ties up to
  // rounding) inside the tail, as R's fisher.test does.
  for (let inA = least; inA <= most; inA += 1) {
    const p = probability(inA);
    if (p <= observed * (1 + 1e-7)) pValue += p;
  }
  return Math.min(1, pValue);
}
