/**
 * The runner's hook on the persisted report tables (persisted-tables.ts): when a study stops
 * running (its last job ended, or it was paused or cancelled, and its last rep in flight
 * ended: runner/runner.ts `drawIfStopped`), every table is drawn once and written under the
 * study's stamps. Without it,
 * a study run from the CLI (or with the Results page closed) was first drawn by whoever opened
 * it next, at the cost of reading and analysing every rep; at the paper's scale that was
 * several plain scans of the rows and over 400 MB. A table already current (the window drew it
 * during the run) costs only its key.
 */
import { TABLE_NAMES, type TableName } from '../analysis';
import { type Store } from '../store';
import { forgetStudyRows, holdsStudyRows } from './row-cache';
import { studyHeader } from './rows';
import { TABLES, reportTable } from './tables';

/** The tables built over the study's rows: the row tables, and graded (over rows, at the spec's threshold). */
function readsRows(name: TableName): boolean {
  return 'build' in TABLES[name] || name === 'graded';
}

/** Tables over rows first: the rows can then be let go before the tables that read flips instead. */
const drawOrder: readonly TableName[] = [
  ...TABLE_NAMES.filter(readsRows),
  ...TABLE_NAMES.filter((name) => !readsRows(name)),
];

/**
 * Draws (and so persists) every table of a native study. Rows read only for this are not kept:
 * an engine that runs studies nobody is looking at should not hold a finished study's rows.
 * Between tables it yields to the event loop, so leases of other reps in flight are renewed.
 */
export async function keepStudyTablesCurrent(store: Store, studyId: string): Promise<void> {
  if (studyHeader(store, studyId).origin !== 'native') return;
  const held = holdsStudyRows(store, studyId);
  for (const name of drawOrder) {
    if (!held && !readsRows(name)) forgetStudyRows(store, studyId);
    reportTable(store, studyId, name);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!held) forgetStudyRows(store, studyId);
}
