/**
 * A cheap revision of the whole workspace database: it moves whenever any connection commits a
 * write (`PRAGMA data_version` counts other connections' commits, `total_changes()` this one's
 * rows). Caches of values computed from several tables (the mechanism and agreement reports)
 * key on it, so they can never outlive the data they were computed from.
 */
import type { Store } from './database';

/** The database's current write revision, as an opaque string. */
export function databaseRevision(store: Store): string {
  const version = store.db.pragma('data_version', { simple: true }) as number;
  const changes = store.db
    .prepare<[], { changes: number }>('SELECT total_changes() AS changes')
    .get();
  return `${version}:${changes?.changes ?? 0}`;
}
