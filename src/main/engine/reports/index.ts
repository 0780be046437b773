/** Reports: a study's reps as analysis rows, the named tables over them, and their printing. */
// The table model lives in analysis (metajudge tables use it too); reports show it as theirs.
export { TABLE_NAMES, type ReportTable } from '../analysis';
export { readStudyRows, studyRows } from './rows';
export {
  TABLES,
  gradedTable,
  isTableName,
  outdatedReportTable,
  persistedReportTable,
  reportTable,
} from './tables';
export { keepStudyTablesCurrent, staleNativeStudies } from './tables-current';
export { formatCsv, formatTable } from './format';
export { importResultsFile } from './import';
export { forgetStudyRows, lastRowCacheRead } from './row-cache';
export { formatCsvRecords, parseCsv, restoreFormula } from './csv';
export { comparisonTables, formatComparison } from './compare-tables';
export { workbenchPage, type WorkbenchQuery } from './workbench-page';
