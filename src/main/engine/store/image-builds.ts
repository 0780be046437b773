/**
 * Item image builds measured here (migration 0014): the runner records each snapshot it built,
 * the estimate reads which items of a study still need one and how long one takes.
 */
import { hashString } from '../../../shared/condition-keys';
import type { SuiteItem } from '../../../shared/suite-format';
import { statement, type Store } from './database';

/** The key of an item's environment: a changed spec is a new build. */
function environmentHash(item: Pick<SuiteItem, 'environment'>): string {
  return hashString(JSON.stringify(item.environment)).toString(16);
}

/** Records that the snapshot of `item` was built in `seconds`. */
export function recordImageBuild(
  store: Store,
  item: Pick<SuiteItem, 'id' | 'environment'>,
  seconds: number,
): void {
  statement(
    store,
    `INSERT OR REPLACE INTO image_builds (item_id, environment_hash, substrate, seconds, built_at)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(
    item.id,
    environmentHash(item),
    item.environment.substrate,
    seconds,
    new Date().toISOString(),
  );
}

/** True when this machine has built the snapshot of `item` as it is now. */
export function imageBuilt(store: Store, item: Pick<SuiteItem, 'id' | 'environment'>): boolean {
  return (
    statement(store, 'SELECT 1 FROM image_builds WHERE item_id = ? AND environment_hash = ?').get(
      item.id,
      environmentHash(item),
    ) !== undefined
  );
}

/** Builds measured per substrate and their median seconds (the latest 100 of each). */
export function imageBuildMedians(
  store: Store,
): Map<string, { builds: number; medianSeconds: number }> {
  const rows = statement(
    store,
    'SELECT substrate, seconds FROM image_builds ORDER BY built_at DESC',
  ).all() as { substrate: string; seconds: number }[];
  const bySubstrate = new Map<string, number[]>();
  for (const row of rows) {
    const list = bySubstrate.get(row.substrate) ?? [];
    if (list.length < 100) list.push(row.seconds);
    bySubstrate.set(row.substrate, list);
  }
  const medians = new Map<string, { builds: number; medianSeconds: number }>();
  for (const [substrate, list] of bySubstrate) {
    const sorted = [...list].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    const median =
      sorted.length % 2 === 1
        ? (sorted[middle] as number)
        : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
    medians.set(substrate, { builds: sorted.length, medianSeconds: median });
  }
  return medians;
}
