/**
 * Whether a piece of file work may still be cancelled, shared by the engine's thread and the
 * files worker (one SharedArrayBuffer, so both see it at once). A cancel and the job's commit
 * race for it and the first wins: a cancelled job stores nothing (its transaction refuses to
 * commit), and a job that has begun to commit is never called cancelled (its answer stands).
 */
import { EngineError } from '../errors';
import { withCommitCheck, type Store } from '../store';

const running = 0;
const cancelled = 1;
const storing = 2;

/** The flag itself: one 32-bit cell that starts as "running". */
export type CommitFlag = Int32Array;

/** A fresh flag for one piece of work. */
export function newCommitFlag(): CommitFlag {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/**
 * The engine's thread: marks the work cancelled if it still runs. Answers what it found:
 * `cancelled` (now, or before), or `storing` (its commit won; it cannot be cancelled).
 */
export function claimCancel(flag: CommitFlag): 'cancelled' | 'storing' {
  const before = Atomics.compareExchange(flag, 0, running, cancelled);
  return before === storing ? 'storing' : 'cancelled';
}

/** The worker, inside a transaction about to commit: throws (rolling it back) once cancelled. */
export function claimCommit(flag: CommitFlag): void {
  const before = Atomics.compareExchange(flag, 0, running, storing);
  if (before === cancelled) {
    throw new EngineError('cancelled', 'The work was cancelled; nothing was stored.');
  }
}

/**
 * `store` whose every transaction claims the commit just before it ends, so a job's writes
 * (however deep in the store they open their transaction) are all or nothing against a cancel.
 */
export function guardedStore(store: Store, flag: CommitFlag): Store {
  return withCommitCheck(store, () => claimCommit(flag));
}
