/**
 * LabApi handlers for report tables (lab-api/reports.ts): a table as data for the window's
 * figures, as the CSV the window downloads, and as the exact text `cuelab report` prints.
 * A table persisted under the study's current key is served here, on the engine's thread (a
 * few index reads; the file once per key; not the report card, whose judges' costs sum every
 * rep); any other is drawn in the reports worker, which
 * holds the row cache, so a table built from 70,000 reps never holds up another request.
 *
 * Only `reportTable` may answer out of date, and only when asked (`current: 'stale-ok'`, the
 * window opening a study): the table as this engine last drew it, marked `outdated` with the
 * reps it covers, while the study's drawing starts in the worker. The CSV, the printed report
 * and every other caller get the current table, as before.
 */
import { studyReportTableSchema } from '../../../shared/lab-api/reports';
import { EngineError } from '../errors';
import {
  formatCsv,
  formatTable,
  isTableName,
  outdatedReportTable,
  persistedReportTable,
  TABLES,
  type ReportTable,
} from '../reports';
import type { DomainHandlers, HandlerContext } from './handlers';
import { drawFailure } from './table-draws';

type TableContext = Pick<HandlerContext, 'store' | 'workers' | 'tableDraws'>;

async function table(
  context: TableContext,
  studyId: string,
  name: string,
  tolerancePp?: number,
): Promise<ReportTable> {
  if (!isTableName(name)) {
    throw new EngineError('bad_request', `There is no report table "${name}".`);
  }
  const options = tolerancePp === undefined ? {} : { tolerancePp };
  const persisted = persistedReportTable(context.store, studyId, name);
  if (persisted) return persisted;
  // The study's tables are being drawn (its run just ended, or the warm pass on start): wait
  // for that drawing in the worker, then serve what it persisted.
  const drawing = context.tableDraws.drawing(studyId);
  if (drawing) {
    try {
      await drawing;
    } catch {
      // The table's own drawing below says what went wrong with it.
    }
    const drawn = persistedReportTable(context.store, studyId, name);
    if (drawn) return drawn;
  }
  try {
    return await context.workers.run('reports', 'reportTable', { studyId, name, ...options });
  } catch (error) {
    throw drawFailure(context, studyId, name, error);
  }
}

/** What an out-of-date answer covers, as the contract says it. */
interface Outdated {
  readonly drawnFromReps: number;
  readonly studyReps: number;
  readonly drawnAt: string;
}

/**
 * The study's table as last drawn, when reps landed since and this engine drew it, with the
 * drawing of the current tables started (or joined) in the worker; undefined when there is
 * none to show (the caller then waits for the current table, as `wait` does).
 */
function outdatedAnswer(
  context: TableContext,
  studyId: string,
  name: string,
): { table: ReportTable; outdated: Outdated } | undefined {
  if (!isTableName(name) || persistedReportTable(context.store, studyId, name)) return undefined;
  const found = outdatedReportTable(context.store, studyId, name);
  if (!found) return undefined;
  // Said in the study's `study.tables` event; the next request meets the error too.
  context.tableDraws.draw(studyId).catch(() => undefined);
  return {
    table: found.table,
    outdated: {
      drawnFromReps: found.coverage.reps,
      studyReps: found.studyReps,
      drawnAt: found.coverage.drawnAt,
    },
  };
}

/**
 * A report table as the contract carries it: no study header, each row marked `pooled` and
 * parsed with its table's row schema, so a row that drifted from the schema fails here, in
 * the engine, rather than in a figure.
 */
function toContract(report: ReportTable, outdated?: Outdated) {
  const { pooled } = TABLES[report.name];
  return studyReportTableSchema.parse({
    ...(outdated ? { outdated } : {}),
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
  context: TableContext,
): DomainHandlers<'reportTable' | 'reportCsv' | 'formatReport'> {
  return {
    reportTable: async ({ studyId, table: name, tolerancePp, current }) => {
      const stale = current === 'stale-ok' ? outdatedAnswer(context, studyId, name) : undefined;
      if (stale) return toContract(stale.table, stale.outdated);
      return toContract(await table(context, studyId, name, tolerancePp));
    },
    reportCsv: async ({ studyId, table: name, tolerancePp }) => ({
      csv: formatCsv(await table(context, studyId, name, tolerancePp)),
      fileName: `cuelab-${studyId.slice(0, 8)}-${name}.csv`,
    }),
    formatReport: async ({ studyId, table: name, format, tolerancePp }) => ({
      text: formatTable(await table(context, studyId, name, tolerancePp), format),
    }),
  };
}
