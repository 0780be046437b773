/**
 * The studies' face: a study's rows and definition, its state (pause, resume, cancel, done),
 * progress and cost, its flags, imported studies and the headers reports and exports read.
 */
export { listStudies } from '../studies';
export { refuseDamagedStudy } from '../study-damage';
export { readStudyFlags } from '../study-flags';
export {
  cancelStudy,
  completeIfDone,
  pauseRunningStudy,
  pauseStudy,
  pausedStudies,
  reopenStudy,
  resumeIfPausedFor,
  resumeStudy,
  studyCost,
  judgeCosts,
  studyProgress,
  studyStatus,
} from '../study-state';
export {
  deleteStudy,
  insertStudyRows,
  latestStudyId,
  matchingStudyIds,
  readStudyDefinition,
  readStudySpecRecord,
  studyHeader,
  studyIsSimulated,
} from '../study-rows';
export { saveImportedStudy } from '../imported-studies';
export {
  nativeStudiesByUpdate,
  readImportedAnalysisRecords,
  readStudyHeader,
} from '../report-rows';
export type { ImportedAnalysisRecord } from '../report-rows';
export { studyJobStates, studyRepJobs } from '../inspect-export-rows';
