/**
 * Group commit: the reps that finish within the same two turns of the event loop are stored in one
 * transaction, each in a savepoint of its own, instead of one transaction each. At concurrency
 * 32 a wave's replies arrive together; one commit for the reps landing together writes the
 * pages they share (the jobs table, its indexes, the done counts, the revision rows) to the
 * WAL once, where each rep's own commit wrote them again.
 *
 * Nothing is acknowledged early: a rep's promise resolves only after the transaction holding
 * it has committed, so a runner that dies before then has stored neither the rep nor its job's
 * completion, and the job is claimed again when its lease runs out. A rep whose own work throws
 * (its lease was lost) rolls back to its savepoint and fails alone; a failure of the storage
 * itself (disk full) fails the whole group, and every rep in it is handled as unstored.
 */
import { isStorageFailure, inTransaction, type Store } from '../store';
import { crashPoint } from './crash-points';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { stored: true; value: unknown } | { stored: false; error: unknown };

/** Counts since the queue was made (the bench prints reps per commit). */
export interface GroupCommitStats {
  /** Transactions committed. */
  groups: number;
  /** Units of work committed in them. */
  committed: number;
}

/** The store's writes of finished reps, grouped per turn of the event loop. */
export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;
  readonly stats: GroupCommitStats = { groups: 0, committed: 0 };

  constructor(private readonly store: Store) {}

  /**
   * Runs `work` (synchronous store writes) in the transaction of the next group; resolves with
   * its result once that transaction has committed, rejects with its error (or the group's).
   */
  commit<Result>(work: () => Result): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // After the I/O callbacks of this turn and of the next (a poll that does not wait):
      // replies that arrived while this turn's were being handled land with them.
      setImmediate(() => setImmediate(() => this.flush()));
    });
  }

  /** Commits what is pending now. */
  private flush(): void {
    this.scheduled = false;
    const group = this.pending;
    this.pending = [];
    if (group.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = inTransaction(this.store, () =>
        group.map((entry): Outcome => {
          try {
            // Nested: a savepoint, rolled back alone when this rep's work throws.
            return { stored: true, value: inTransaction(this.store, entry.work) };
          } catch (error) {
            // The disk cannot take the group: nothing of it may look stored.
            if (isStorageFailure(error)) throw error;
            return { stored: false, error };
          }
        }),
      );
    } catch (error) {
      for (const entry of group) entry.reject(error);
      return;
    }
    this.stats.groups += 1;
    this.stats.committed += outcomes.filter((outcome) => outcome.stored).length;
    if (group.length > 1) crashPoint('group-committed');
    group.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome?.stored) entry.resolve(outcome.value);
      else entry.reject(outcome?.error);
    });
  }
}
