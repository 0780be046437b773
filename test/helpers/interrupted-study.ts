/**
 * A study interrupted by quitting, made from a finished one on a real workspace: its newest
 * jobs are put back in the queue, every table drawn and persisted (as the window or the runner
 * last drew them), and the jobs then done again: reps that landed after the tables were drawn.
 */
import { join } from 'node:path';
import { keepStudyTablesCurrent } from '../../src/main/engine/reports';
import { persistedTablesDir } from '../../src/main/engine/reports/persisted-tables';
import { openStore } from '../../src/main/engine/store/database';
import { rmSync } from 'node:fs';

/** The workspace database under `workspace` (a folder). */
function databaseOf(workspace: string): string {
  return join(workspace, 'cuelab.sqlite');
}

/**
 * Puts the study's `count` newest done jobs back in the queue and persists every table drawn
 * without them; returns their ids and the study's done reps before (for `landReps`).
 */
export async function persistBeforeLastReps(
  workspace: string,
  studyId: string,
  count: number,
): Promise<{ held: number[]; reps: number }> {
  const store = openStore(databaseOf(workspace));
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
    for (const id of held) queue.run(id);
    rmSync(persistedTablesDir(store.path), { recursive: true, force: true });
    await keepStudyTablesCurrent(store, studyId);
    return { held, reps };
  } finally {
    store.close();
  }
}

/** The held jobs done again, their reps landed after the tables were drawn. */
export function landReps(workspace: string, held: readonly number[]): void {
  const store = openStore(databaseOf(workspace));
  try {
    const done = store.db.prepare<[number]>(`UPDATE jobs SET state = 'done' WHERE id = ?`);
    for (const id of held) done.run(id);
  } finally {
    store.close();
  }
}
