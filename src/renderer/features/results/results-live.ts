/**
 * Keeps the Results page current while a study runs: `study.progress` events land in a buffer
 * (not the store), and at most once a second the newest progress is copied in and the report
 * tables that move while reps land are fetched again; a `studies.changed` (a status move) fetches
 * every table, the mechanism tables too, and so does the end of a drawing of the study's tables
 * (`study.tables`): an out-of-date table shown when the study opened is then replaced by the
 * current one. A fetch never overlaps the previous one.
 */
import type { StoreApi } from 'zustand';
import type { StudyProgress } from '../../../shared/study-progress';
import { onLabEvent } from '../../lib/lab-events';
import type { AllSlices } from '../../store/types';

/** Least time between two refreshes. */
export const RESULTS_REFRESH_MS = 1000;

/** Follows one study's events; returns a function that stops. */
export function watchResultsStudy(
  store: StoreApi<AllSlices>,
  studyId: string,
  intervalMs: number = RESULTS_REFRESH_MS,
): () => void {
  let buffered: StudyProgress | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastRefresh = 0;
  let inFlight = false;
  let dirty = false;
  let stopped = false;
  let all = false;

  const refresh = async () => {
    timer = undefined;
    if (stopped) return;
    if (inFlight) {
      dirty = true;
      return;
    }
    inFlight = true;
    lastRefresh = Date.now();
    if (buffered) store.getState().setResultsProgress(buffered);
    buffered = null;
    const which = all ? 'all' : 'live';
    all = false;
    try {
      await store.getState().loadResultTables(which);
    } finally {
      inFlight = false;
      if (dirty) {
        dirty = false;
        schedule();
      }
    }
  };

  const schedule = () => {
    if (timer !== undefined || stopped) return;
    const wait = Math.max(0, lastRefresh + intervalMs - Date.now());
    timer = setTimeout(() => void refresh(), wait);
  };

  const stopProgress = onLabEvent('study.progress', (progress) => {
    if (progress.studyId !== studyId) return;
    buffered = progress;
    schedule();
  });
  const stopStudies = onLabEvent('studies.changed', (change) => {
    if (change.studyId !== undefined && change.studyId !== studyId) return;
    all = true;
    schedule();
  });
  const stopTables = onLabEvent('study.tables', (drawing) => {
    if (drawing.studyId !== studyId) return;
    if (drawing.error === undefined && drawing.done < drawing.total) return;
    // Drawn (or failed: the tables' own answers then say why).
    all = true;
    schedule();
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopProgress();
    stopStudies();
    stopTables();
  };
}
