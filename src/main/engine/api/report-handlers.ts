/**
 * LabApi handlers for report tables (lab-api/reports.ts): a table as data for the window's
 * figures, as the CSV the window downloads, and as the exact text `cuelab report` prints.
 */
import { studyReportTableSchema } from '../../../shared/lab-api/reports';
import { EngineError } from '../errors';
import {
  formatCsv,
  formatTable,
  isTableName,
  reportTable,
  TABLES,
  type ReportTable,
} from '../reports';
import type { Store } from '../store';
import type { DomainHandlers, HandlerContext } from './handlers';

function table(store: Store, studyId: string, name: string, tolerancePp?: number): ReportTable {
  if (!isTableName(name)) {
    throw new EngineError('bad_request', `There is no report table "${name}".`);
  }
  return reportTable(store, studyId, name, tolerancePp === undefined ? {} : { tolerancePp });
}

/**
 * A report table as the contract carries it: no study header, each row marked `pooled` and
 * parsed with its table's row schema, so a row that drifted from the schema fails here, in
 * the engine, rather than in a figure.
 */
function toContract(report: ReportTable) {
  const { pooled } = TABLES[report.name];
  return studyReportTableSchema.parse({
    name: report.name,
    title: report.title,
    columns: report.columns,
    rows: report.rows.map((row) => ({ ...row, pooled: pooled(row) })),
    notes: report.notes,
    simulated: report.simulated,
    reps: report.reps,
  });
}

/** The report handlers. */
export function reportHandlers(
  context: Pick<HandlerContext, 'store'>,
): DomainHandlers<'reportTable' | 'reportCsv' | 'formatReport'> {
  const { store } = context;
  return {
    reportTable: ({ studyId, table: name, tolerancePp }) =>
      toContract(table(store, studyId, name, tolerancePp)),
    reportCsv: ({ studyId, table: name, tolerancePp }) => ({
      csv: formatCsv(table(store, studyId, name, tolerancePp)),
      fileName: `cuelab-${studyId.slice(0, 8)}-${name}.csv`,
    }),
    formatReport: ({ studyId, table: name, format, tolerancePp }) => ({
      text: formatTable(table(store, studyId, name, tolerancePp), format),
    }),
  };
}
