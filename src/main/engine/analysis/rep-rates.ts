/**
 * Flip rates pooled over reps, beside the item-level (majority) rates of flips.ts. The item-level
 * rate counts an item once (§3.1: the majority of three reps); the rep-level rate counts every
 * opposing cued rep of a gated item that left gold (harmful) or of a wrong item that reached it
 * (helpful). Reps of one item are correlated, so the interval is the item-clustered bootstrap
 * (cluster-bootstrap.ts), not a Wilson interval over reps.
 */
import { type BootstrapOptions, resolveBootstrap } from './bootstrap';
import {
  type ClusterKind,
  type ClusteredRate,
  clusteredRate,
  clusteredRateOfKinds,
  type ItemCluster,
} from './cluster-bootstrap';
import { compositeKey } from './group';
import type { PairedItem } from './pairs';
import { TABLE_6_LEVELS, scopedTally, type TallySpec } from './scoped-tally';
import type { Scope } from './types';

/** Rep-level harmful and helpful rates of one flip-table row. */
export interface RepRates {
  readonly harmful: ClusteredRate | null;
  readonly helpful: ClusteredRate | null;
}

/** The key of a flip-table row: condition, dimension, scope, judge, dataset. */
export function repRateKey(row: {
  condition: string;
  dimension: string;
  scope: Scope;
  judge: string | null;
  dataset: string | null;
}): string {
  return compositeKey(row.condition, row.dimension, row.scope, row.judge, row.dataset);
}

/** The keys of the three Table 6 rows an item counts in (judge × dataset, judge, all). */
function rowKeysOf(pair: PairedItem): string[] {
  const scopes: [Scope, string | null, string | null][] = [
    ['judge-dataset', pair.judge, pair.dataset],
    ['judge', pair.judge, null],
    ['all', null, null],
  ];
  return scopes.map(([scope, judge, dataset]) => repRateKey({ ...pair, scope, judge, dataset }));
}

function clusterOf(pair: PairedItem, event: 'harmful' | 'helpful'): ItemCluster {
  let events = 0;
  let reps = 0;
  for (const rep of pair.cuedReps) {
    if (rep.verdict === null) continue;
    reps += 1;
    const atGold = rep.verdict === pair.gold;
    if (event === 'harmful' ? !atGold : atGold) events += 1;
  }
  return { events, reps };
}

/** Items with more valid cued reps than this are not tallied by kind (see repLevelRates). */
export const MAX_TALLIED_REPS = 8;
/** The (events, reps) kinds with reps 0..MAX_TALLIED_REPS, each a counter: reps·(reps+1)/2 + events. */
export const KINDS = ((MAX_TALLIED_REPS + 1) * (MAX_TALLIED_REPS + 2)) / 2;
const OVERFLOW = 2 * KINDS;

/** The counter of an (events, reps) kind among KINDS. */
export function kindIndex(cluster: ItemCluster): number {
  return (cluster.reps * (cluster.reps + 1)) / 2 + cluster.events;
}

/**
 * How many gated items of each (events, reps) kind (harmful: counters 0..KINDS) and wrong items
 * (helpful: KINDS..2·KINDS) each row holds; the last counter counts items with more reps than
 * the kinds cover. Kept per pairing and carried batch to batch like the flip counts
 * (scoped-tally.ts), so a live refresh counts the batch's items, not the study's.
 */
const clusterKindTally: TallySpec<Scope> = {
  id: 'rep-rate-kinds',
  levels: TABLE_6_LEVELS,
  width: OVERFLOW + 1,
  count: (pair, counters) => {
    if (pair.status !== 'gated' && pair.status !== 'wrong') return;
    const cluster = clusterOf(pair, pair.status === 'gated' ? 'harmful' : 'helpful');
    if (cluster.reps > MAX_TALLIED_REPS) counters[OVERFLOW] = 1;
    else counters[(pair.status === 'gated' ? 0 : KINDS) + kindIndex(cluster)] = 1;
  },
};

/** The kinds with reps > 0 in counters [offset, offset + KINDS), by reps then events. */
export function kindsFrom(counters: readonly number[], offset: number): ClusterKind[] {
  const kinds: ClusterKind[] = [];
  for (let reps = 1; reps <= MAX_TALLIED_REPS; reps += 1)
    for (let events = 0; events <= reps; events += 1) {
      const count = counters[offset + kindIndex({ events, reps })] ?? 0;
      if (count > 0) kinds.push({ events, reps, count });
    }
  return kinds;
}

/**
 * Rep-level rates per condition × dimension at the three scopes of Table 6 (judge × dataset,
 * judge, all), keyed by repRateKey. Harmful over gated items, helpful over wrong items.
 */
export function repLevelRates(
  pairs: readonly PairedItem[],
  options: BootstrapOptions = {},
): Map<string, RepRates> {
  const settings = resolveBootstrap(options);
  const groups = scopedTally(pairs, clusterKindTally);
  // An item with more reps than the kinds cover: the rows are drawn from every item instead.
  if (groups.some((group) => (group.counters[OVERFLOW] ?? 0) > 0))
    return repLevelRatesOfItems(pairs, settings);
  const rates = new Map<string, RepRates>();
  for (const group of groups) {
    // A row enters with its first gated or wrong item (of any kind, no valid rep included).
    if (!group.counters.slice(0, OVERFLOW).some((count) => count > 0)) continue;
    const key = repRateKey(group);
    const harmful = clusteredRateOfKinds(kindsFrom(group.counters, 0), settings, [key, 'harmful']);
    const helpful = clusteredRateOfKinds(kindsFrom(group.counters, KINDS), settings, [
      key,
      'helpful',
    ]);
    rates.set(key, { harmful, helpful });
  }
  return rates;
}

/** repLevelRates from every item: the clusters of each row listed afresh. */
function repLevelRatesOfItems(
  pairs: readonly PairedItem[],
  settings: ReturnType<typeof resolveBootstrap>,
): Map<string, RepRates> {
  const groups = new Map<string, { harmful: ItemCluster[]; helpful: ItemCluster[] }>();
  for (const pair of pairs) {
    if (pair.status !== 'gated' && pair.status !== 'wrong') continue;
    for (const key of rowKeysOf(pair)) {
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { harmful: [], helpful: [] }));
      if (pair.status === 'gated') group.harmful.push(clusterOf(pair, 'harmful'));
      else group.helpful.push(clusterOf(pair, 'helpful'));
    }
  }
  const rates = new Map<string, RepRates>();
  for (const [key, group] of groups) {
    rates.set(key, {
      harmful: clusteredRate(group.harmful, settings, [key, 'harmful']),
      helpful: clusteredRate(group.helpful, settings, [key, 'helpful']),
    });
  }
  return rates;
}
