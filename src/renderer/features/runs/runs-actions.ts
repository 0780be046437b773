/**
 * What the Runs page's shortcuts do: pause or resume the study on screen, step through the
 * list. The buttons call the same store actions.
 */
import type { StoreApi } from 'zustand';
import { loadedValue } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';
import { currentStudyId, navigateToStudy } from './run-route';

/** The study Runs shows: the one in the hash, else the newest. */
export function shownStudyId(state: AllSlices): string | null {
  return currentStudyId() ?? loadedValue(state.studies)?.[0]?.id ?? null;
}

/** True when a study in this status can be paused. */
export function canPause(status: string): boolean {
  return status === 'running' || status === 'queued';
}

/** True when a study in this status can be resumed. */
export function canResume(status: string): boolean {
  return status === 'paused' || status === 'failed';
}

/** Pauses the study on screen when it runs, resumes it when it is paused. */
export async function togglePauseSelected(store: StoreApi<AllSlices>): Promise<void> {
  const state = store.getState();
  const studyId = shownStudyId(state);
  if (!studyId) return;
  const status =
    state.progressByStudy[studyId]?.status ??
    loadedValue(state.studies)?.find((study) => study.id === studyId)?.status;
  if (status && canPause(status)) await state.controlStudy(studyId, 'pause');
  else if (status && canResume(status)) await state.controlStudy(studyId, 'resume');
}

/** Shows the next (1) or previous (-1) study in the list. */
export function selectAdjacentStudy(store: StoreApi<AllSlices>, step: 1 | -1): void {
  const state = store.getState();
  const list = loadedValue(state.studies) ?? [];
  if (list.length === 0) return;
  const index = list.findIndex((study) => study.id === shownStudyId(state));
  const next = list[Math.min(list.length - 1, Math.max(0, index + step))];
  if (next) navigateToStudy(next.id);
}
