/**
 * The reps' face: storing a judged rep and its web recording, and every read of stored reps
 * (transcripts, the workbench query, the rows analysis and flip lists are computed from).
 */
export { loadJudgeRep, saveJudgeRep } from '../judge-reps';
export { saveWebRecording } from '../web-recordings';
export { listReps } from '../reps';
export {
  jobStudyOfRep,
  readStoredRep,
  repMessages,
  repOrigin,
  repSimulationRecord,
  repToolCalls,
  studyStoredReps,
} from '../rep-transcripts';
export type { RepOrigin, StoredMessage, StoredRep, StoredToolCall } from '../rep-transcripts';
export { containsPattern, queryStudyReps, repFacets, REP_SORT_KEYS } from '../rep-query';
export type { QueriedRep, RepQuery, RepSortKey } from '../rep-query';
export {
  dimensionGoldStamp,
  doneJobCount,
  importedRepCount,
  latestRepRowid,
  readConditionBodies,
  readNativeAnalysisRecords,
  readNativeAnalysisRecordsSince,
} from '../analysis-rows';
export type { NativeAnalysisRecord } from '../analysis-rows';
export { cuedBinaryReps, uncuedReps } from '../flip-rows';
export type { CuedBinaryRep, UncuedRep } from '../flip-rows';
export { readDimensionGold, saveDimensionGold, uncuedBinaryReps } from '../dimension-gold';
export type { DimensionGoldRecord, StoredDimensionGold, UncuedBinaryRep } from '../dimension-gold';
