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
  storedBuiltinVersion,
  suiteItemGold,
} from './suite-items';
export { listSuites } from './suites';
export { workspaceTemperaturePolicy } from './temperature-memory';
export { describeStorageFailure, isStorageFailure } from './write-errors';
export { findMalformedJson, namedStoreDamage } from './store-damage';
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
export { fixedMajorityKeys, majorityKey, recentRepTimes } from './rep-times';
export type { FinishedRepTime } from './rep-times';
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
export { inTransaction } from './transaction';
export {
  isJsonRecord,
  outcomeColumn,
  parseJsonColumn,
  readJsonColumn,
  readJsonRecordColumn,
  readOptionalJsonColumn,
} from './json-column';
export type { ColumnPlace } from './json-column';
export {
  deleteStudy,
  insertStudyRows,
  latestStudyId,
  matchingStudyIds,
  readStudyDefinition,
  readStudySpecRecord,
  studyHeader,
  studyIsSimulated,
} from './study-rows';
export type { NewStudy, NewStudyItem, StoredStudyDefinition } from './study-rows';
export { providerCallLog } from './provider-calls';
export type { ProviderCallLog, StoredProviderCall } from './provider-calls';
export { measuredRepTime, modelRepHistory } from './model-history';
export type { ModelRepHistory } from './model-history';
export { uncuedArmsWithoutMajority } from './study-majorities';
export type { UncuedArm } from './study-majorities';
export { readDimensionGold, saveDimensionGold, uncuedJudgedReps } from './dimension-gold';
export type { DimensionGoldRecord, StoredDimensionGold, UncuedJudgedRep } from './dimension-gold';
export { cuedBinaryReps, uncuedReps } from './flip-rows';
export type { CuedBinaryRep, UncuedRep } from './flip-rows';
export { gradedRepRecords } from './graded-flip-rows';
export type { GradedRepRecord } from './graded-flip-rows';
export {
  jobStudyOfRep,
  readStoredRep,
  repMessages,
  repOrigin,
  repSimulationRecord,
  repToolCalls,
  studyStoredReps,
} from './rep-transcripts';
export type { RepOrigin, StoredMessage, StoredRep, StoredToolCall } from './rep-transcripts';
export {
  insertAnnotators,
  insertBundleRows,
  readBundleTables,
  readSuiteRows,
  repExists,
  studyName,
} from './bundle-rows';
export type { BundleTableName, StoredRow, StoredSuiteRows } from './bundle-rows';
export { saveImportedStudy } from './imported-studies';
export type { ImportedRepRow, ImportedStudy } from './imported-studies';
export { hasMajority, insertMajority, readUncuedJobOutcomes } from './majorities';
export type { MajorityRecord, UncuedJobOutcome } from './majorities';
export { readImportedAnalysisRecords, readStudyHeader } from './report-rows';
export { studyJobStates, studyRepJobs, type RepJob } from './inspect-export-rows';
export type { ImportedAnalysisRecord, StudyHeaderRecord } from './report-rows';
export { containsPattern, queryStudyReps, repFacets, REP_SORT_KEYS } from './rep-query';
export type { QueriedRep, RepQuery, RepSortKey } from './rep-query';
