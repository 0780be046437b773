/** Analysis: pure functions from judge-rep rows to table rows (CONVENTIONS.md). */
export { UNCUED_CONDITION } from './types';
export type {
  BinaryVerdict,
  ControlOptions,
  CueDirection,
  Interval,
  JudgeRepRow,
  RepOutcomeName,
  Scope,
} from './types';
export { Z_95, proportion, wilsonInterval } from './wilson';
export { armKey, goldOf, majorityRow, majorityVerdicts, majorityVote } from './majority';
export type { MajorityRow, MajorityStatus, MajorityVote } from './majority';
export { binaryDimensions, opposes, pairItems, pairRows } from './pairs';
export type { PairStatus, PairedItem } from './pairs';
export {
  itemRowsKey,
  lastPairingUpdate,
  noteItemContiguous,
  noteRowsGrown,
  type GrownItem,
} from './pair-index';
export { flipRates, flipRatesFromPairs } from './flips';
export type { ExcludedItems, FlipCounts, FlipRow } from './flips';
export { accuracyCounts, accuracyUnderCue } from './accuracy';
export type { AccuracyCounts, AccuracyRow } from './accuracy';
export { directionAsymmetry } from './direction';
export type { DirectionOptions, DirectionRate, DirectionRow, DirectionScope } from './direction';
export {
  MIN_RESAMPLES,
  arithmeticMean,
  percentileInterval,
  quantile,
  resolveBootstrap,
  stratifiedBootstrap,
} from './bootstrap';
export type { BootstrapOptions, ResolvedBootstrap } from './bootstrap';
export { headroomClosed, trajectoryHeadroom } from './headroom';
export type { HeadroomRow, TrajectoryHeadroom } from './headroom';
export { harmfulFlipsByEffort, pearsonCorrelation, plottedBins } from './effort';
export type { EffortBin, EffortOptions, EffortRow, TurnBin } from './effort';
export { findMitigationPairs, firstRowPerCondition, mitigationEffects } from './mitigation';
export type { MitigationPair, MitigationRow, MitigationSide } from './mitigation';
export { compareConditions, mcnemarExact } from './mcnemar';
export type { ComparisonSubset, ConditionComparisonRow, McNemarResult } from './mcnemar';
export { HOLM_METHOD, holmAdjust, holmAdjustWithin } from './multiplicity';
export { newcombePairedDifference } from './paired-difference';
export type { PairedCounts, PairedDifference } from './paired-difference';
export { clusteredRate } from './cluster-bootstrap';
export type { ClusteredRate, ItemCluster } from './cluster-bootstrap';
export { repLevelRates, repRateKey, rowKeysOf } from './rep-rates';
export type { RepRates } from './rep-rates';
export { flipsBeyondPlacebo, isPlaceboArm, placeboArms } from './placebo';
export type { BeyondPlacebo } from './placebo';
export { gradedFlipRates, gradedRepFlips } from './graded';
export type { GradedOptions, GradedRepFlip, GradedRow } from './graded';
export {
  POOLED,
  SIMULATED_NOTE,
  TABLE_NAMES,
  intervalCells,
  intervalColumns,
  makeTable,
  percent,
  percentIntervalCells,
  whyNoPairs,
} from './table-model';
export type { ReportCell, ReportColumn, ReportRow, ReportTable, TableName } from './table-model';
export { rowFacts, type RowFacts } from './row-facts';
export { lastTallyUpdate } from './scoped-tally';
export { fisherExact, newcombePaired, newcombeUnpaired } from './proportion-difference';
export type { Sample, StudyPairCounts } from './proportion-difference';
export { compareStudies, itemOutcome, matchJudges } from './study-compare';
export type {
  ChangedItem,
  FlipMetric,
  ItemOutcome,
  StudyCompareRow,
  StudyComparison,
} from './study-compare';
