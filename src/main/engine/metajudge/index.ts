/**
 * The meta-judge (§3.3, App. F, H, N, P; ARCHITECTURE.md `metajudge`): why each flipped rep
 * flipped. Flipped pairs, the deterministic trajectory diff, the LLM ensemble, validation
 * against the synthetic judge, agreement statistics and the blind labelling queue.
 */
export type { MechanismLabel } from '../mechanism-labels';
export { findFlippedReps, studyFlipKinds, studyGradedThreshold } from './flipped';
export type { FlippedRep } from './flipped';
export { loadRunRecord } from './run-record';
export type { RunRecord } from './run-record';
export { loadFlipPairView } from './pair';
export { alignCalls } from './diff/trajectory';
export { mechanismValidation, mechanismValidationReport } from './validation';
export { agreementReportTable } from './agreement/table';
export { parseEnsembleConfig } from './ensemble/voters';
export { classifyStudy } from './classify-study';
export { flipsWithLabels, humanLabelProblem, labellingQueue, saveHumanLabel } from './queue';
