/** Reports: a study's reps as analysis rows, the named tables over them, and their printing. */
// The table model lives in analysis (metajudge tables use it too); reports show it as theirs.
export {
  TABLE_NAMES,
  SIMULATED_NOTE,
  POOLED,
  percent,
  intervalColumns,
  intervalCells,
  percentIntervalCells,
  whyNoPairs,
  makeTable,
  type TableName,
  type ReportColumn,
  type ReportCell,
  type ReportRow,
  type ReportTable,
} from '../analysis';
export * from './rows';
export * from './tables';
export * from './format';
export * from './results-parse';
export * from './import';
export { forgetStudyRows, lastRowCacheRead, type RowCacheRead } from './row-cache';
export { formatCsvRecords, parseCsv, restoreFormula } from './csv';
export { comparisonTables, formatComparison, type ComparisonTables } from './compare-tables';
