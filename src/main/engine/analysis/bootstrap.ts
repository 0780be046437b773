/**
 * Seeded percentile bootstrap (Fig. 4 and App. K: "95% bootstrap CIs over trajectories"). The
 * generator is the engine's mulberry32 (random.ts), seeded by the study seed and the names of
 * what is resampled, so the same seed always gives the same interval.
 */
import { HARNESS_SEED } from '../paper';
import { seededRandom } from '../random';
import type { Interval } from './types';

/** The least number of resamples we accept (the floor). */
export const MIN_RESAMPLES = 1000;

/** Bootstrap settings. */
export interface BootstrapOptions {
  /** Resamples; default 2000, at least MIN_RESAMPLES. */
  readonly resamples?: number;
  /** Seed; default App. R's harness seed 17. */
  readonly seed?: number;
  /** Two-sided coverage; default 0.95. */
  readonly confidence?: number;
}

/** Settings with defaults filled in. */
export interface ResolvedBootstrap {
  readonly resamples: number;
  readonly seed: number;
  readonly confidence: number;
}

/** Fills defaults and checks the floor. */
export function resolveBootstrap(options: BootstrapOptions = {}): ResolvedBootstrap {
  const resolved = {
    resamples: options.resamples ?? 2000,
    seed: options.seed ?? HARNESS_SEED,
    confidence: options.confidence ?? 0.95,
  };
  if (!Number.isInteger(resolved.resamples) || resolved.resamples < MIN_RESAMPLES) {
    throw new RangeError(`A bootstrap needs at least ${MIN_RESAMPLES} resamples.`);
  }
  if (!(resolved.confidence > 0 && resolved.confidence < 1)) {
    throw new RangeError('Confidence must lie strictly between 0 and 1.');
  }
  return resolved;
}

/** Linear-interpolation quantile (R type 7) of ascending values; `sorted` must be non-empty. */
export function quantile(sorted: readonly number[], probability: number): number {
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const low = sorted[below] as number;
  const high = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return low + (position - below) * (high - low);
}

/** The central `confidence` percentile interval of a sample of statistics. */
export function percentileInterval(values: readonly number[], confidence: number): Interval {
  const sorted = [...values].sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return { low: quantile(sorted, tail), high: quantile(sorted, 1 - tail) };
}

function mean(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total / values.length;
}

/**
 * Stratified bootstrap of "the mean within each stratum, then the unweighted mean of the strata"
 * (§3.2: per trajectory, pooled per dataset, averaged across datasets). Each resample draws every
 * stratum's values with replacement at its own size. Returns one interval per stratum and one for
 * the average, all from the same resamples. Every stratum must be non-empty.
 */
export function stratifiedBootstrap(
  strata: readonly (readonly number[])[],
  settings: ResolvedBootstrap,
  scope: readonly string[],
): { readonly perStratum: Interval[]; readonly overall: Interval } {
  const random = seededRandom(settings.seed, 'bootstrap', ...scope);
  const stratumMeans: number[][] = strata.map(() => []);
  const overall: number[] = [];
  for (let resample = 0; resample < settings.resamples; resample += 1) {
    let total = 0;
    strata.forEach((values, index) => {
      let sum = 0;
      for (let draw = 0; draw < values.length; draw += 1) {
        sum += values[Math.floor(random() * values.length)] as number;
      }
      const stratumMean = sum / values.length;
      (stratumMeans[index] as number[]).push(stratumMean);
      total += stratumMean;
    });
    overall.push(total / strata.length);
  }
  return {
    perStratum: stratumMeans.map((means) => percentileInterval(means, settings.confidence)),
    overall: percentileInterval(overall, settings.confidence),
  };
}

/** Mean of a non-empty list (exported for the point estimates that match the bootstrap). */
export function arithmeticMean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('The mean of nothing is undefined.');
  return mean(values);
}
