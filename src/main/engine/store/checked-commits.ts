/**
 * A store whose every transaction runs a check just before it commits: a check that throws
 * rolls the whole transaction back, however deep in the store the transaction was opened. The
 * files worker uses it so a cancelled job stores nothing (workers/commit-flag.ts).
 */
import type { Store } from './database';

/** `store`, with `beforeCommit` run at the end of each of its transactions. */
export function withCommitCheck(store: Store, beforeCommit: () => void): Store {
  const db = store.db;
  const transaction = <F extends (...args: never[]) => unknown>(work: F) =>
    db.transaction((...args: Parameters<F>) => {
      const value = work(...args);
      beforeCommit();
      return value;
    });
  const checked = new Proxy(db, {
    get(target, property) {
      if (property === 'transaction') return transaction;
      const value: unknown = Reflect.get(target, property, target);
      // The connection's methods run on the connection itself, not on this proxy.
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { ...store, db: checked };
}
