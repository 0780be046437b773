/**
 * A study interrupted by quitting, made from a finished one on a real workspace: its newest
 * jobs are put back in the queue, every table drawn and persisted (as the window or the runner
 * last drew them), and the jobs then done again: reps that landed after the tables were drawn.
 * The tests and bench part (e) both make it here.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { keepStudyTablesCurrent } from '../../src/main/engine/reports';
import { persistedTablesDir } from '../../src/main/engine/reports/persisted-tables';
import { openStore } from '../../src/main/engine/store/database';

/** Draws and persists every table of the study in the workspace database at `databasePath`. */
type PersistTables = (databasePath: string, studyId: string) => Promise<unknown>;

/** The workspace database under `workspace` (a folder). */
function databaseOf(workspace: string): string {
  return join(workspace, 'cuelab.sqlite');
}

/** Draws and persists the study's tables in this process, as the engine's runner does. */
async function persistHere(databasePath: string, studyId: string): Promise<void> {
  const store = openStore(databasePath);
  try {
    await keepStudyTablesCurrent(store, studyId);
  } finally {
    store.close();
  }
}

/** Puts the study's `count` newest done jobs back in the queue; their ids and the done reps before. */
function holdLastJobs(
  databasePath: string,
  studyId: string,
  count: number,
): { held: number[]; reps: number } {
  const store = openStore(databasePath);
  try {
    const reps =
      store.db
        .prepare<[string], { n: number }>(
          `SELECT count(*) AS n FROM jobs WHERE study_id = ? AND state = 'done'`,
        )
        .get(studyId)?.n ?? 0;
    const held = store.db
      .prepare<[string, number], { id: number }>(
        `SELECT id FROM jobs WHERE study_id = ? AND state = 'done' ORDER BY id DESC LIMIT ?`,
      )
      .all(studyId, count)
      .map((row) => row.id);
    const queue = store.db.prepare<[number]>(`UPDATE jobs SET state = 'queued' WHERE id = ?`);
    store.db.transaction(() => held.forEach((id) => queue.run(id)))();
    return { held, reps };
  } finally {
    store.close();
  }
}

/**
 * Puts the study's `count` newest done jobs back in the queue and persists every table drawn
 * without them; returns their ids and the study's done reps before (for `landReps`). `persist`
 * draws the tables (in this process unless given: the bench draws them in a process of its
 * own); should it fail, the jobs are done again before the error goes on.
 */
export async function persistBeforeLastReps(
  workspace: string,
  studyId: string,
  count: number,
  persist: PersistTables = persistHere,
): Promise<{ held: number[]; reps: number }> {
  const databasePath = databaseOf(workspace);
  const { held, reps } = holdLastJobs(databasePath, studyId, count);
  try {
    rmSync(persistedTablesDir(databasePath), { recursive: true, force: true });
    await persist(databasePath, studyId);
  } catch (error) {
    landReps(workspace, held);
    throw error;
  }
  return { held, reps };
}

/** The held jobs done again, their reps landed after the tables were drawn. */
export function landReps(workspace: string, held: readonly number[]): void {
  const store = openStore(databaseOf(workspace));
  try {
    const done = store.db.prepare<[number]>(`UPDATE jobs SET state = 'done' WHERE id = ?`);
    store.db.transaction(() => held.forEach((id) => done.run(id)))();
  } finally {
    store.close();
  }
}
