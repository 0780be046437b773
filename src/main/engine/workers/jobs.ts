/**
 * The jobs a worker thread runs, by name. Each gets the worker's own connection to the
 * workspace database and a way to report progress; its input and its value cross threads by
 * structured clone. The engine's thread imports only this file's types (pool.ts), so a job's
 * code is loaded where it runs.
 */
import type { TableName } from '../analysis';
import {
  comparisonTables,
  keepStudyTablesCurrent,
  reportTable,
  staleNativeStudies,
  workbenchPage,
  type WorkbenchQuery,
} from '../reports';
import type { Store } from '../store';
import {
  exportBundleJob,
  exportInspectJob,
  exportLabelsJob,
  importLabelsJob,
  importResultsJob,
  importRunsJob,
  importSuiteFileJob,
  openBundleJob,
  uploadImportFilesJob,
} from './file-jobs';
import type { JobProgress } from './messages';

/** What a job is given besides its input. */
export interface WorkerJobContext {
  readonly store: Store;
  progress(progress: JobProgress): void;
}

/** Every job a worker runs. */
export const workerJobs = {
  /**
   * Draws and persists every report table of a study (reports/tables-current.ts), telling its
   * progress table by table. The reports worker owns the row cache, so a study it holds is
   * brought up to date with the reps landed since, not read again.
   */
  drawTables: async (context: WorkerJobContext, input: { studyId: string }) => {
    await keepStudyTablesCurrent(context.store, input.studyId, (progress) =>
      context.progress(progress),
    );
    return { studyId: input.studyId };
  },
  /**
   * Native studies not running whose persisted tables are missing or stale, the most recently
   * updated first (reads every study's key and file of tables: kept off the engine's thread).
   */
  staleStudies: (context: WorkerJobContext, _input: Record<string, never>) =>
    staleNativeStudies(context.store),
  /** One report table of a study, drawn (and persisted) on this thread. */
  reportTable: (
    context: WorkerJobContext,
    input: { studyId: string; name: TableName; tolerancePp?: number },
  ) =>
    reportTable(
      context.store,
      input.studyId,
      input.name,
      input.tolerancePp === undefined ? {} : { tolerancePp: input.tolerancePp },
    ),
  /** Two studies compared (reports/compare-tables.ts): both studies' rows and report cards. */
  compareTables: (
    context: WorkerJobContext,
    input: {
      studyA: string;
      studyB: string;
      equivalenceMargin: number | null;
      tolerancePp?: number;
    },
  ) =>
    comparisonTables(
      context.store,
      input.studyA,
      input.studyB,
      input.equivalenceMargin,
      input.tolerancePp,
    ),
  /**
   * Starts the lane's worker and opens its connection, nothing else: a long-lived engine warms
   * its reads worker so the window's first page does not wait for the thread to start.
   */
  warmUp: (context: WorkerJobContext, _input: Record<string, never>) => ({
    databasePath: context.store.path,
  }),
  /**
   * One page of the results workbench (reports/workbench-page.ts), on the reads lane: its
   * memos of a study's flips and facets live with this worker's connection.
   */
  queryReps: (context: WorkerJobContext, input: WorkbenchQuery) =>
    workbenchPage(context.store, input),
  // The files lane (file-jobs.ts): exports, bundles opened, imports parsed and stored, uploads
  // staged.
  exportBundle: exportBundleJob,
  exportInspect: exportInspectJob,
  exportLabels: exportLabelsJob,
  openBundle: openBundleJob,
  importRuns: importRunsJob,
  importResults: importResultsJob,
  importSuiteFile: importSuiteFileJob,
  importLabels: importLabelsJob,
  uploadImportFiles: uploadImportFilesJob,
};

/** The jobs' table, as the pool types it. */
export type WorkerJobs = typeof workerJobs;
