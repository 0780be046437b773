/**
 * Item-clustered bootstrap for a rate pooled over reps (Miller 2024, "Adding error bars to
 * evals"): the three reps of an item (§3.1) share its trajectory, so they are not independent
 * trials, and a Wilson interval over all reps would be too narrow. Each resample draws items with
 * replacement and keeps every rep of a drawn item together; the rate is the resampled events over
 * the resampled reps. Items with the same (events, reps) are interchangeable, so a resample is
 * drawn as how many copies of each kind it holds (a multinomial), which is the same distribution
 * at a fraction of the cost on large studies. Seeded as every bootstrap here is (bootstrap.ts),
 * so one seed gives one interval.
 *
 * Small samples: a percentile bootstrap over few items, or over items that all agree (no flip
 * anywhere, or one item), has too little spread and can have none (a zero-width "33.3 [33.3,
 * 33.3]"); its coverage falls to about 0.5 at 10 items and a 3% rate. So the interval is the hull
 * of the bootstrap's and Wilson's at the effective sample size (reps over the design effect
 * 1 + (m̄ − 1)·ICC, the ICC estimated from the items by one-way ANOVA; when the items show no
 * variation to estimate it, ICC = 1 and the effective size is the item count). At many items the
 * two nearly agree; at few the Wilson end keeps the coverage. Below FEW_CLUSTERS items a row is
 * flagged so tables and figures can warn.
 */
import { percentileInterval, type ResolvedBootstrap } from './bootstrap';
import { seededRandom } from '../random';
import { binomialDraw } from './binomial-draw';
import type { Interval } from './types';
import { wilsonAtEffectiveSize, zForConfidence } from './wilson';

/** Below this many items (clusters) a clustered interval is flagged as resting on few items. */
export const FEW_CLUSTERS = 15;

/** One item's reps: how many there were and in how many the event happened. */
export interface ItemCluster {
  readonly events: number;
  readonly reps: number;
}

/** The pooled rate and its clustered interval. */
export interface ClusteredRate {
  /** Items (clusters) behind the rate. */
  readonly items: number;
  readonly reps: number;
  readonly events: number;
  /** events / reps. */
  readonly rate: number;
  readonly interval: Interval;
  /** Reps over the estimated design effect: what the Wilson floor of the interval rests on. */
  readonly effectiveSize: number;
  /** Fewer than FEW_CLUSTERS items: the interval rests on few clusters. */
  readonly fewItems: boolean;
}

/**
 * events / reps pooled over items, with the percentile interval of the item-resampled rate; null
 * when no item has a rep. Items with no reps are left out (they carry no information).
 */
export function clusteredRate(
  clusters: readonly ItemCluster[],
  settings: ResolvedBootstrap,
  scope: readonly string[],
): ClusteredRate | null {
  const items = clusters.filter((cluster) => cluster.reps > 0);
  for (const cluster of items) {
    if (!Number.isInteger(cluster.events) || cluster.events < 0 || cluster.events > cluster.reps) {
      throw new RangeError(`An item has ${cluster.events} events in ${cluster.reps} reps.`);
    }
  }
  if (items.length === 0) return null;
  return clusteredRateOfKinds(kindsOf(items), settings, scope);
}

/** One (events, reps) kind of item and how many items of it there are. */
export interface ClusterKind {
  readonly events: number;
  readonly reps: number;
  readonly count: number;
}

/**
 * clusteredRate from the items' kinds (each with reps > 0), sorted by reps then events: a live
 * refresh keeps these counts per row and carries them batch to batch (rep-rates.ts), so it need
 * not list every item of the study again.
 */
export function clusteredRateOfKinds(
  kinds: readonly ClusterKind[],
  settings: ResolvedBootstrap,
  scope: readonly string[],
): ClusteredRate | null {
  let itemCount = 0;
  let events = 0;
  let reps = 0;
  for (const kind of kinds) {
    itemCount += kind.count;
    events += kind.count * kind.events;
    reps += kind.count * kind.reps;
  }
  if (itemCount === 0) return null;
  // The interval depends only on how many items of each (events, reps) kind there are and on
  // the seed; a live refresh rebuilds every row and most rows' items did not change.
  const memoKey = [
    settings.seed,
    settings.resamples,
    settings.confidence,
    ...scope,
    kinds.map((kind) => `${kind.events}/${kind.reps}x${kind.count}`).join(','),
  ].join('\u0000');
  const known = memo.get(memoKey);
  if (known) {
    // Kept as most recently used: a study with more rows than the memo holds would otherwise
    // evict each row's interval before its next refresh and draw every row again.
    memo.delete(memoKey);
    memo.set(memoKey, known);
    return known;
  }
  const random = seededRandom(settings.seed, 'cluster-bootstrap', ...scope);
  const rates: number[] = [];
  for (let resample = 0; resample < settings.resamples; resample += 1) {
    // Drawing n items with replacement = a multinomial over the kinds, drawn as a chain of
    // binomials (binomial-draw.ts).
    let left = itemCount;
    let drawnEvents = 0;
    let drawnReps = 0;
    let itemsLeft = itemCount;
    for (const kind of kinds) {
      const copies =
        itemsLeft === kind.count ? left : binomialDraw(left, kind.count / itemsLeft, random);
      drawnEvents += copies * kind.events;
      drawnReps += copies * kind.reps;
      left -= copies;
      itemsLeft -= kind.count;
    }
    rates.push(drawnEvents / drawnReps);
  }
  const rate = events / reps;
  const bootstrap = percentileInterval(rates, settings.confidence);
  const effectiveSize = effectiveSizeOfKinds(kinds, itemCount, reps);
  const floor = wilsonAtEffectiveSize(rate, effectiveSize, zForConfidence(settings.confidence));
  const result = {
    items: itemCount,
    reps,
    events,
    rate,
    interval: floor
      ? { low: Math.min(bootstrap.low, floor.low), high: Math.max(bootstrap.high, floor.high) }
      : bootstrap,
    effectiveSize,
    fewItems: itemCount < FEW_CLUSTERS,
  };
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(memoKey, result);
  return result;
}

const MEMO_LIMIT = 4096;
const memo = new Map<string, ClusteredRate>();

/**
 * Reps over the design effect 1 + (m̄ − 1)·ICC, with the one-way ANOVA ICC of the items' events
 * (clipped to [0, 1]); the item count when the ICC cannot be estimated (one item, or no
 * variation between or within items).
 */
export function effectiveSizeOfKinds(
  kinds: readonly ClusterKind[],
  items: number,
  reps: number,
): number {
  if (items < 2 || reps <= items) return items;
  const grand = kinds.reduce((sum, kind) => sum + kind.count * kind.events, 0) / reps;
  let between = 0;
  let within = 0;
  let squares = 0;
  for (const kind of kinds) {
    const mean = kind.events / kind.reps;
    between += kind.count * kind.reps * (mean - grand) ** 2;
    within += kind.count * (kind.events - (kind.events * kind.events) / kind.reps);
    squares += kind.count * kind.reps * kind.reps;
  }
  const msb = between / (items - 1);
  const msw = within / (reps - items);
  const n0 = (reps - squares / reps) / (items - 1);
  const denominator = msb + (n0 - 1) * msw;
  if (!(denominator > 0)) return items;
  const icc = Math.min(1, Math.max(0, (msb - msw) / denominator));
  return reps / (1 + (reps / items - 1) * icc);
}

/** The distinct (events, reps) kinds with their counts, in a fixed order. */
function kindsOf(items: readonly ItemCluster[]): ClusterKind[] {
  const counts = new Map<string, { events: number; reps: number; count: number }>();
  for (const cluster of items) {
    const key = `${cluster.events}/${cluster.reps}`;
    const kind = counts.get(key);
    if (kind) kind.count += 1;
    else counts.set(key, { events: cluster.events, reps: cluster.reps, count: 1 });
  }
  return [...counts.values()].sort((a, b) => a.reps - b.reps || a.events - b.events);
}
