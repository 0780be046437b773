import type { Store } from './database';

/**
 * Runs `work` in one transaction of the workspace database and returns its result: callers
 * above the store group several store writes (a study and its first jobs, a rep and its job's
 * completion) so they land together or not at all, without holding the connection themselves.
 * `immediate` takes the write lock before the first read (waiting out another connection's
 * writer), so a commit on another connection meanwhile cannot void this one's snapshot.
 */
export function inTransaction<Result>(
  store: Store,
  work: () => Result,
  options: { immediate?: boolean } = {},
): Result {
  const transaction = store.db.transaction(work);
  return options.immediate ? transaction.immediate() : transaction();
}
