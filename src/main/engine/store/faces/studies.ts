/**
 * The studies' face: a study's rows and definition, its state (pause, resume, cancel, done),
 * progress and cost, its flags, imported studies and the headers reports and exports read.
 */
export { listStudies } from '../studies';
export { readStudyFlags } from '../study-flags';
export type { StudyFlags } from '../study-flags';
export {
  cancelStudy,
  completeIfDone,
  pauseStudy,
  reopenStudy,
  resumeStudy,
  studyCost,
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
export type { NewStudy, NewStudyItem, StoredStudyDefinition } from '../study-rows';
export { saveImportedStudy } from '../imported-studies';
export type { ImportedRepRow, ImportedStudy } from '../imported-studies';
export { readImportedAnalysisRecords, readStudyHeader } from '../report-rows';
export type { ImportedAnalysisRecord, StudyHeaderRecord } from '../report-rows';
export { studyJobStates, studyRepJobs, type RepJob } from '../inspect-export-rows';
