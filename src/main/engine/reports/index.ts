/** Reports: a study's reps as analysis rows, the named tables over them, and their printing. */
export * from './table-model';
export * from './rows';
export * from './tables';
export * from './format';
export * from './results-parse';
export * from './import';
export { forgetStudyRows, lastRowCacheRead, type RowCacheRead } from './row-cache';
