/** Analysis: pure functions from judge-rep rows to table rows (CONVENTIONS.md). */
export { UNCUED_CONDITION } from './types';
export type { BinaryVerdict, CueDirection, Interval, JudgeRepRow, RepOutcomeName } from './types';
export { wilsonInterval } from './wilson';
export { majorityVote } from './majority';
export { pairItems } from './pairs';
export {
  itemRowsKey,
  lastPairingUpdate,
  noteItemContiguous,
  noteRowsGrown,
  type GrownItem,
} from './pair-index';
export { flipRates, flipRatesFromPairs } from './flips';
export type { FlipRow } from './flips';
export { accuracyUnderCue } from './accuracy';
export { directionAsymmetry } from './direction';
export type { DirectionRate, DirectionRow } from './direction';
export { resolveBootstrap } from './bootstrap';
export { headroomClosed } from './headroom';
export { harmfulFlipsByEffort } from './effort';
export { mitigationEffects } from './mitigation';
export type { MitigationRow } from './mitigation';
export {
  benjaminiHochbergAdjust,
  benjaminiHochbergWithin,
  BH_METHOD,
  holmAdjust,
  HOLM_METHOD,
  holmAdjustWithin,
} from './multiplicity';
export type { ClusteredRate } from './cluster-bootstrap';
export { FEW_CLUSTERS } from './cluster-bootstrap';
export { repLevelRates, repRateKey } from './rep-rates';
export { flipsBeyondPlacebo, placeboArms } from './placebo';
export { flipsBeyondRepeat } from './repeat';
export type { BeyondRepeat } from './repeat';
export { familyArmOf, reportCard } from './report-card';
export type { CardRow } from './report-card';
export type { BeyondPlacebo } from './placebo';
export { gradedFlipRates, gradedRepFlips } from './graded';
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
export { rowFacts } from './row-facts';
export { lastTallyUpdate } from './scoped-tally';
export { compareStudies } from './study-compare';
export type { StudyComparison } from './study-compare';
export { simulatedEffectCell } from './simulated-mitigations';
export { realizedPower, realizedPowerCell, uncuedRepIcc } from './realized-power';
export { fisherExact } from './proportion-difference';
export { pairedEquivalence, unpairedEquivalence } from './equivalence';
export { flipRegressions } from './flip-regression';
