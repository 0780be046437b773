/** Leaving the app (ARCHITECTURE.md `export`): study bundles and mechanism labels as CSV. */
export {
  BUNDLE_FORMAT,
  BUNDLE_TABLES,
  BUNDLE_VERSION,
  bundleRowSchema,
  studyBundleSchema,
} from './bundle-format';
export type { BundleRow, BundleTableKey, StudyBundle } from './bundle-format';
export { buildBundle, bundleText, exportBundle } from './bundle-export';
export type { ExportBundleOptions, ExportBundleSummary } from './bundle-export';
export { openBundle, readBundle } from './bundle-open';
export type { OpenBundleOptions, OpenBundleSummary } from './bundle-open';
export {
  LABEL_CSV_COLUMNS,
  LabelsImportError,
  exportLabelsCsv,
  importLabelsCsv,
  importLabelsFile,
  labelSheetCsv,
  parseLabelsCsv,
} from './labels-csv';
export type { LabelsImportSummary } from './labels-csv';
export { exportInspectLogs } from './inspect-log';
