/**
 * The job queue's face: claiming with a lease, completing by compare-and-swap, failing,
 * releasing and requeueing; the provider calls a job already made (so a retried rep replays
 * them) and the majorities that decide which cued jobs a finished control queues.
 */
export {
  cancelJob,
  claimJob,
  completeJob,
  failJob,
  insertJob,
  openJobCount,
  releaseJob,
  releaseOwnedJobs,
  renewLease,
  requeueOrphanedJobs,
  retryFailedJobs,
  runningByStudy,
  runningStudyIds,
} from '../jobs';
export type { ClaimedJob } from '../jobs';
export { hasMajority, insertMajority, readUncuedJobOutcomes } from '../majorities';
export type { UncuedJobOutcome } from '../majorities';
export { fixedMajorityKeys, majorityKey, recentRepTimes } from '../rep-times';
export type { FinishedRepTime } from '../rep-times';
export { uncuedArmsWithoutMajority } from '../study-majorities';
export { providerCallLog } from '../provider-calls';
