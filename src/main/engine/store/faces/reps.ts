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
  repReasoning,
  repOrigin,
  repSimulationRecord,
  repToolCalls,
  studyStoredRepKeys,
  studyStoredReps,
} from '../rep-transcripts';
export type { StoredMessage, StoredRep } from '../rep-transcripts';
export type { GradedRepRecord } from '../graded-flip-rows';
export {
  labelsRevision,
  queryStudyReps,
  repFacets,
  repMechanismFacet,
  repMechanisms,
} from '../rep-query';
export { fillSearchIndex, unindexedRepCount } from '../search-index';
export {
  dimensionGoldStamp,
  doneJobCount,
  importedRepCount,
  labelTablesStamp,
  latestRepRowid,
  nativeRowsStamp,
  eachNativeAnalysisRecord,
  readConditionBodies,
  readNativeAnalysisRecordsSince,
} from '../analysis-rows';
export type { NativeAnalysisRecord } from '../analysis-rows';
export { cuedBinaryReps, uncuedReps } from '../flip-rows';
export { readDimensionGold, saveDimensionGold, uncuedJudgedReps } from '../dimension-gold';
export { gradedRepRecords } from '../graded-flip-rows';
