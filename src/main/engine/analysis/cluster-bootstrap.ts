/**
 * Item-clustered bootstrap for a rate pooled over reps (Miller 2024, "Adding error bars to
 * evals"): the three reps of an item (§3.1) share its trajectory, so they are not independent
 * trials, and a Wilson interval over all reps would be too narrow. Each resample draws items with
 * replacement and keeps every rep of a drawn item together; the rate is the resampled events over
 * the resampled reps. Items with the same (events, reps) are interchangeable, so a resample is
 * drawn as how many copies of each kind it holds (a multinomial), which is the same distribution
 * at a fraction of the cost on large studies. Seeded as every bootstrap here is (bootstrap.ts), so one seed gives one
 * interval.
 */
import { percentileInterval, type ResolvedBootstrap } from './bootstrap';
import { seededRandom } from '../random';
import { binomialDraw } from './binomial-draw';
import type { Interval } from './types';

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
  const result = {
    items: itemCount,
    reps,
    events,
    rate: events / reps,
    interval: percentileInterval(rates, settings.confidence),
  };
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(memoKey, result);
  return result;
}

const MEMO_LIMIT = 4096;
const memo = new Map<string, ClusteredRate>();

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
