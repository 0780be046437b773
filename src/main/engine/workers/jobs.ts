/**
 * The jobs a worker thread runs, by name. Each gets the worker's own connection to the
 * workspace database and a way to report progress; its input and its value cross threads by
 * structured clone. The engine's thread imports only this file's types (pool.ts), so a job's
 * code is loaded where it runs.
 */
import type { TableName } from '../analysis';
import { keepStudyTablesCurrent, reportTable } from '../reports';
import type { Store } from '../store';
import type { JobProgress } from './messages';

/** What a job is given besides its input. */
export interface WorkerJobContext {
  readonly store: Store;
  progress(progress: JobProgress): void;
}

/** Every job a worker runs. */
export const workerJobs = {
  /** Draws and persists every report table of a study (reports/tables-current.ts). */
  drawTables: async (context: WorkerJobContext, input: { studyId: string }) => {
    await keepStudyTablesCurrent(context.store, input.studyId);
    return { studyId: input.studyId };
  },
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
};

/** The jobs' table, as the pool types it. */
export type WorkerJobs = typeof workerJobs;
