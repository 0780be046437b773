/**
 * The end of a study's run: once it stopped running (completed, paused by the runner or the
 * researcher, cancelled) with none of its reps in flight in any runner, its report tables are
 * drawn and persisted, so whoever opens the study next is served from disk
 * (reports/tables-current.ts).
 */
import { keepStudyTablesCurrent } from '../reports';
import type { Store } from '../store';
import { runningByStudy } from '../store/faces/jobs';
import { studyStatus } from '../store/faces/studies';

/** Where a stopped study's tables are drawn. */
export interface TableDrawing {
  store: Store;
  /**
   * Draws and persists a stopped study's report tables; the engine does it in its reports
   * worker thread (api/table-draws.ts). Without it they are drawn here, on this thread.
   */
  drawTables?: (studyId: string) => Promise<void>;
}

/** Draws the study's tables if it stopped and no rep of it is in flight; never throws. */
export async function drawIfStopped(drawing: TableDrawing, studyId: string): Promise<void> {
  const { store } = drawing;
  try {
    if (studyStatus(store, studyId).status === 'running') return;
    if ((runningByStudy(store).get(studyId) ?? 0) > 0) return;
    if (drawing.drawTables) await drawing.drawTables(studyId);
    else await keepStudyTablesCurrent(store, studyId);
  } catch {
    // A derived cache: a table that could not be drawn now is built by its first reader. The
    // rep itself is stored; nothing here may count as its failure.
  }
}
