/** The engine's worker threads: heavy jobs off the thread that answers requests (pool.ts). */
export {
  createEngineWorkers,
  JobCancelledError,
  type EngineWorkers,
  type JobInput,
  type JobOptions,
  type JobOutput,
} from './pool';
export {
  claimCancel,
  claimCommit,
  guardedStore,
  newCommitFlag,
  type CommitFlag,
} from './commit-flag';
