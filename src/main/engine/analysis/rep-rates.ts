/**
 * Flip rates pooled over reps, beside the item-level (majority) rates of flips.ts. The item-level
 * rate counts an item once (§3.1: the majority of three reps); the rep-level rate counts every
 * opposing cued rep of a gated item that left gold (harmful) or of a wrong item that reached it
 * (helpful). Reps of one item are correlated, so the interval is the item-clustered bootstrap
 * (cluster-bootstrap.ts), not a Wilson interval over reps.
 */
import { type BootstrapOptions, resolveBootstrap } from './bootstrap';
import { type ClusteredRate, clusteredRate, type ItemCluster } from './cluster-bootstrap';
import { compositeKey } from './group';
import type { PairedItem } from './pairs';
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
export function rowKeysOf(pair: PairedItem): string[] {
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

/**
 * Rep-level rates per condition × dimension at the three scopes of Table 6 (judge × dataset,
 * judge, all), keyed by repRateKey. Harmful over gated items, helpful over wrong items.
 */
export function repLevelRates(
  pairs: readonly PairedItem[],
  options: BootstrapOptions = {},
): Map<string, RepRates> {
  const settings = resolveBootstrap(options);
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
