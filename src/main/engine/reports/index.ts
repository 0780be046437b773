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
export { readStudyRows, studyHeader, studyRows } from './rows';
export type { StudyHeader } from './rows';
export {
  TABLES,
  ablationTable,
  accuracyTable,
  effortTable,
  flipsTable,
  gradedTable,
  isTableName,
  mitigationsTable,
  placementTable,
  reportTable,
  severityTable,
} from './tables';
export type { TableDefinition } from './tables';
export {
  REPORT_FORMATS,
  displayCell,
  formatCsv,
  formatJson,
  formatMarkdown,
  formatTable,
} from './format';
export type { PrintedTable, ReportFormat } from './format';
export { detectFormat, parseResults } from './results-parse';
export type { ImportedRep, ParsedResults, ResultsFormat } from './results-parse';
export { ResultsImportError, importResults, importResultsFile } from './import';
export type { ImportSummary, ImportedStudySpec, ResultsSource } from './import';
export { forgetStudyRows, lastRowCacheRead, type RowCacheRead } from './row-cache';
export { formatCsvRecords, parseCsv, restoreFormula } from './csv';
export { comparisonTables, formatComparison, type ComparisonTables } from './compare-tables';
