/**
 * `study.progress` events into the progress slice, at most once per animation frame: events
 * wait in a buffer (newest per study wins) and one store update carries the batch.
 */
import type { StoreApi } from 'zustand';
import type { StudyProgress } from '../../../shared/study-progress';
import { onLabEvent } from '../../lib/lab-events';
import type { AllSlices } from '../../store/types';

/** Feeds progress events to the store until the returned function is called. */
export function startProgressFeed(store: StoreApi<AllSlices>): () => void {
  const buffer = new Map<string, StudyProgress>();
  let frame: number | null = null;
  const flush = () => {
    frame = null;
    const batch = [...buffer.values()];
    buffer.clear();
    store.getState().applyProgress(batch);
  };
  const unsubscribe = onLabEvent('study.progress', (progress) => {
    buffer.set(progress.studyId, progress);
    frame ??= requestAnimationFrame(flush);
  });
  return () => {
    unsubscribe();
    if (frame !== null) cancelAnimationFrame(frame);
    buffer.clear();
  };
}

/** A throttled call and a way to drop its pending trailing call. */
export interface Throttled {
  call: () => void;
  cancel: () => void;
}

/** Calls `listener` at most once per `intervalMs`, always including the last call. */
export function throttle(listener: () => void, intervalMs: number): Throttled {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = Date.now();
    listener();
  };
  return {
    call: () => {
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) fire();
      else timer ??= setTimeout(fire, wait);
    },
    cancel: () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
