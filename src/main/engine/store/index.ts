/** The face of `store/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export { latestVersion, openStore } from './database';
export type { Store } from './database';
export { listDockerHosts, removeDockerHost, saveDockerHost } from './docker-hosts';
export { loadJudgeRep, saveJudgeRep } from './judge-reps';
export {
  ANNOTATOR_PATTERN,
  labelsForRep,
  listStudyLabels,
  replaceRepLabels,
  saveLabels,
} from './labels';
export type { LabelInput } from './labels';
export { listReps } from './reps';
export { listStudies } from './studies';
export { readStudyFlags } from './study-flags';
export type { StudyFlags } from './study-flags';
export {
  getSuiteItem,
  getSuiteSettings,
  getSuiteTaxonomies,
  listSuiteItemIds,
  listSuiteItems,
  saveSuite,
} from './suite-items';
export { listSuites } from './suites';
export { workspaceTemperaturePolicy } from './temperature-memory';
export { describeStorageFailure, isStorageFailure } from './write-errors';
export {
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
} from './jobs';
export type { ClaimedJob } from './jobs';
export {
  cancelStudy,
  completeIfDone,
  pauseStudy,
  reopenStudy,
  resumeStudy,
  studyCost,
  studyProgress,
  studyStatus,
} from './study-state';
export { saveWebRecording } from './web-recordings';
export {
  dimensionGoldStamp,
  doneJobCount,
  importedRepCount,
  latestRepRowid,
  readConditionBodies,
  readNativeAnalysisRecords,
  readNativeAnalysisRecordsSince,
} from './analysis-rows';
export type { NativeAnalysisRecord } from './analysis-rows';
export { databaseRevision } from './revision';
