/** The face of `runner/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export { createStudy } from './create-study';
export { estimateStudy } from './estimate';
export { requeueOrphanedJobs, retryFailedJobs } from '../store/faces/jobs';
export { cancelStudy, pauseStudy, reopenStudy, resumeStudy } from '../store/faces/studies';
export { studyProgress } from './progress';
export { loadStudy, resolveStudyId } from './load-study';
export { StudyRunner } from './runner';
export { loadStudySpec, parseStudySpec, specProblems } from './spec-file';
export { judgeOneRep } from './judge-one';
export type { JudgeRepResult } from './commit-rep';
export type { JudgeOneRequest } from './judge-one';
export { workspaceRunnerDeps } from './workspace-deps';
export { selectItems } from './create-study';
export { HeldPauses } from './held-pauses';
export { runValidation } from './validate';
