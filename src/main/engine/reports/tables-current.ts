/**
 * The persisted report tables kept current (persisted-tables.ts). When a study stops running
 * (its last job ended, or it was paused or cancelled, and its last rep in flight ended:
 * runner/runner.ts `drawIfStopped`), every table is drawn once and written under the study's
 * stamps; on engine start, studies whose tables are missing or stale (an older engine's study,
 * a run interrupted by quitting) are drawn the same way in the background (`staleNativeStudies`).
 * Without it, a study was first drawn by whoever opened it next, at the cost of reading and
 * analysing every rep; at the paper's scale that was several plain scans of the rows and over
 * 400 MB. A table already current (the window drew it during the run) costs only its key.
 * The engine runs this in its reports worker thread (workers/jobs.ts `drawTables`).
 */
import { TABLE_NAMES, type TableName } from '../analysis';
import { type Store } from '../store';
import { nativeStudiesByUpdate } from '../store/faces/studies';
import { persistedTable, studyTablesRef } from './persisted-tables';
import { forgetStudyRows, holdsStudyRows } from './row-cache';
import { studyHeader } from './rows';
import { TABLES, reportTable } from './tables';
import { studyFacets } from './workbench-facets';

/** The tables built over the study's rows: the row tables, and graded (over rows, at the spec's threshold). */
function readsRows(name: TableName): boolean {
  return 'build' in TABLES[name] || name === 'graded';
}

/** Tables over rows first: the rows can then be let go before the tables that read flips instead. */
const drawOrder: readonly TableName[] = [
  ...TABLE_NAMES.filter(readsRows),
  ...TABLE_NAMES.filter((name) => !readsRows(name)),
];

/** How far a drawing has come: `done` of `total` tables, `step` the table being drawn. */
export interface DrawProgress {
  readonly done: number;
  readonly total: number;
  readonly step: string;
}

/**
 * Draws (and so persists) every table of a native study. Rows read only for this are not kept:
 * an engine that runs studies nobody is looking at should not hold a finished study's rows.
 * Between tables it yields to the event loop and tells `onProgress` how far it is.
 */
export async function keepStudyTablesCurrent(
  store: Store,
  studyId: string,
  onProgress?: (progress: DrawProgress) => void,
): Promise<void> {
  if (studyHeader(store, studyId).origin !== 'native') return;
  const held = holdsStudyRows(store, studyId);
  const total = drawOrder.length;
  for (const [index, name] of drawOrder.entries()) {
    onProgress?.({ done: index, total, step: name });
    if (!held && !readsRows(name)) forgetStudyRows(store, studyId);
    reportTable(store, studyId, name);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!held) forgetStudyRows(store, studyId);
  // The workbench's filter values too, so its first page after a start reads a file.
  studyFacets(store, studyId);
  onProgress?.({ done: total, total, step: 'done' });
}

/** Whether every table of a native study is persisted under its current keys (reads no rep). */
export function studyTablesCurrent(store: Store, studyId: string): boolean {
  const rows = studyTablesRef(store, studyId, 'rows');
  const stored = studyTablesRef(store, studyId, 'store');
  return TABLE_NAMES.every(
    (name) => persistedTable(store, 'build' in TABLES[name] ? rows : stored, name) !== undefined,
  );
}

/**
 * Native studies that are not running and whose persisted tables are missing or stale, the
 * most recently updated first: what the engine draws in the background when it starts.
 */
export function staleNativeStudies(store: Store): string[] {
  return nativeStudiesByUpdate(store)
    .filter((study) => study.status !== 'running' && !studyTablesCurrent(store, study.id))
    .map((study) => study.id);
}
