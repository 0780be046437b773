/** Analysis: pure functions from judge-rep rows to table rows (CONVENTIONS.md). */
export * from './types';
export * from './wilson';
export * from './majority';
export * from './pairs';
export {
  itemRowsKey,
  lastPairingUpdate,
  noteItemContiguous,
  noteRowsGrown,
  type GrownItem,
} from './pair-index';
export * from './flips';
export * from './accuracy';
export * from './direction';
export * from './bootstrap';
export * from './headroom';
export * from './effort';
export * from './mitigation';
export * from './mcnemar';
export * from './multiplicity';
export * from './paired-difference';
export * from './cluster-bootstrap';
export * from './rep-rates';
export * from './placebo';
export * from './graded';
export * from './table-model';
export { rowFacts, type RowFacts } from './row-facts';
export { lastTallyUpdate } from './scoped-tally';
export * from './proportion-difference';
export * from './study-compare';
export { simulatedEffectCell, simulatedMitigationNotes } from './simulated-mitigations';
