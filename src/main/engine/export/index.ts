/** Leaving the app (ARCHITECTURE.md `export`): study bundles and mechanism labels as CSV. */
export * from './bundle-format';
export * from './bundle-export';
export * from './bundle-open';
export * from './labels-csv';
export { exportInspectLogs } from './inspect-log';
