import type { Store } from './database';

/**
 * Runs `work` in one transaction of the workspace database and returns its result: callers
 * above the store group several store writes (a study and its first jobs, a rep and its job's
 * completion) so they land together or not at all, without holding the connection themselves.
 */
export function inTransaction<Result>(store: Store, work: () => Result): Result {
  return store.db.transaction(work)();
}
