/**
 * The meta-judge (§3.3, App. F, H, N, P; ARCHITECTURE.md `metajudge`): why each flipped rep
 * flipped. Flipped pairs, the deterministic trajectory diff, the LLM ensemble, validation
 * against the synthetic judge, agreement statistics and the blind labelling queue.
 */
export {
  HARMFUL_LABELS,
  HELPFUL_LABELS,
  MECHANISM_LABELS,
  OVER_TRUST_SUB_MODES,
  STORED_LABELS,
  isLabelSource,
  isMechanismLabel,
  isStoredLabel,
  labelsFor,
} from '../mechanism-labels';
export type {
  FlipKind,
  HarmfulLabel,
  HelpfulLabel,
  LabelSource,
  MechanismLabel,
  Outcome,
  OverTrustSubMode,
  StoredLabel,
} from '../mechanism-labels';
export { chooseTwin, findFlippedRep, findFlippedReps } from './flipped';
export type { FlipScope, FlippedRep, UncuedTwin } from './flipped';
export { loadRunRecord } from './run-record';
export type { CallView, RunRecord, RunStep } from './run-record';
export { diffPair, loadFlipPairView, loadPair, trueMechanism } from './pair';
export type { FlipPair, FlipPairView } from './pair';
export {
  extractClaims,
  isSupported,
  normalizeNumber,
  supportCorpus,
  unsupportedClaims,
} from './diff/claims';
export type { Claim, ClaimKind, SupportCorpus } from './diff/claims';
export { cueEchoes, deferencePhrases, earlyStopPhrases, overridePhrases } from './diff/language';
export {
  alignCalls,
  callKey,
  cites,
  divergenceIndex,
  jaccard,
  missingChecks,
  sameCheck,
} from './diff/trajectory';
export type { AlignedRow, CallLike } from './diff/trajectory';
export {
  FEWER_CALLS_MIN_GAP,
  FEWER_CALLS_RATIO,
  UNCITED_SKIP_WEIGHT,
  classifyFlip,
} from './diff/classify';
export type { CheckDiff, DiffInput, DiffResult, DiffSide, Overlap } from './diff/classify';
export {
  VALIDATION_ORDER,
  confusionMatrix,
  mechanismValidation,
  mechanismValidationReport,
  mechanismValidationTable,
  paperTruth,
} from './validation';
export type {
  ConfusionMatrix,
  MechanismValidation,
  MechanismValidationTable,
  ValidationCase,
} from './validation';
export {
  cohenKappa,
  cohenKappaFromTable,
  fleissKappa,
  fleissKappaFromLabels,
} from './agreement/kappa';
export type { CohenKappa, FleissKappa } from './agreement/kappa';
export {
  agreementReport,
  agreementSummary,
  majorityLabel,
  percentUnanimous,
  scoreAgainst,
} from './agreement/report';
export type {
  AgreementOptions,
  AgreementReport,
  AgreementSummary,
  ClassifierScore,
  LabelledCase,
} from './agreement/report';
export { agreementForStudy, labelledCases } from './agreement/study';
export type { StudyAgreement, StudyAgreementOptions } from './agreement/study';
export { agreementReportTable, agreementTable } from './agreement/table';
export type { AgreementTable } from './agreement/table';
export {
  ensembleConfigSchema,
  loadEnsembleFile,
  parseEnsembleConfig,
  providerForVoter,
  tieBreakerOf,
  voterSchema,
} from './ensemble/voters';
export type { EnsembleConfig, Voter } from './ensemble/voters';
export {
  MAX_LINE_CHARS,
  MAX_RESULT_LINES,
  META_JUDGE_PROMPT_VERSION,
  THINK_STEP_BY_STEP,
  metaJudgeSystemPrompt,
  metaJudgeUserMessage,
  numberLines,
  transcriptLines,
} from './ensemble/prompt';
export type { MetaJudgeCase } from './ensemble/prompt';
export { jsonCandidates, parseObject, parseVoterAnswer } from './ensemble/answer';
export type { VoterAnswer } from './ensemble/answer';
export { decideVote } from './ensemble/vote';
export type { Vote, VoteOutcome } from './ensemble/vote';
export { askVoter, runEnsemble, voterProviderOptions } from './ensemble/run';
export type { EnsembleDeps, EnsembleResult, VoterResult } from './ensemble/run';
export {
  CONSENSUS_PROMPT_VERSION,
  MAX_EVIDENCE_RUNS,
  consensusQuestion,
  consensusSystemPrompt,
  consensusUserMessage,
} from './consensus/prompt';
export type { ConsensusCase } from './consensus/prompt';
export { decideGold, parseGoldAnswer, runConsensusGold } from './consensus/gold';
export type { ConsensusGold, GoldVote } from './consensus/gold';
export {
  CONSENSUS_GOLD_SOURCE,
  VERIFIED_DIMENSION,
  deriveStudyGold,
  goldCases,
  storedGold,
} from './consensus/study-gold';
export type { GoldCase, GoldSummary } from './consensus/study-gold';
export { classifyStudy } from './classify-study';
export type { ClassifyOptions, ClassifySummary } from './classify-study';
export { flipsWithLabels, humanLabelProblem, labellingQueue, saveHumanLabel } from './queue';
export type { FlipWithLabels, HumanLabelInput, LabellingQueue, QueueEntry } from './queue';
