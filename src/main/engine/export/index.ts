/** Leaving the app (ARCHITECTURE.md `export`): study bundles and mechanism labels as CSV. */
export { exportBundle } from './bundle-export';
export { openBundle } from './bundle-open';
export { exportLabelsCsv, importLabelsCsv, labelSheetCsv } from './labels-csv';
export { exportInspectLog, exportInspectLogs, type InspectLogFile } from './inspect-log';
