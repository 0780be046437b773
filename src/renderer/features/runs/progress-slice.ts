import type { StateCreator } from 'zustand';
import type { StudyProgress } from '../../../shared/study-progress';
import { labClientFor } from '../../lib/engine-client';
import type { AllSlices } from '../../store/types';

/** What a person can ask of a study. */
export type StudyAction = 'pause' | 'resume' | 'cancel' | 'retry-failed';

/**
 * Live progress per study, keyed by study id. Events are batched per animation frame
 * (progress-feed.ts) and each component selects one study's entry, so a busy study re-renders
 * only its own card and detail.
 */
export interface ProgressSlice {
  /** The newest progress of each study the window has seen. */
  progressByStudy: Record<string, StudyProgress>;
  /** A control request in flight, per study. */
  pendingControl: Record<string, StudyAction | undefined>;
  /** The last control or load problem, per study. */
  progressErrors: Record<string, string | undefined>;
  /** Stores a batch of progress reports (newest wins). */
  applyProgress: (reports: readonly StudyProgress[]) => void;
  /** Asks the engine for a study's progress. */
  loadProgress: (studyId: string) => Promise<void>;
  /** Pauses, resumes, cancels or retries failed reps. */
  controlStudy: (studyId: string, action: StudyAction) => Promise<void>;
}

export const createProgressSlice: StateCreator<AllSlices, [], [], ProgressSlice> = (set, get) => {
  const setError = (studyId: string, message: string | undefined) =>
    set((state) => ({ progressErrors: { ...state.progressErrors, [studyId]: message } }));
  return {
    progressByStudy: {},
    pendingControl: {},
    progressErrors: {},
    applyProgress: (reports) => {
      if (reports.length === 0) return;
      set((state) => {
        const next = { ...state.progressByStudy };
        for (const report of reports) next[report.studyId] = report;
        return { progressByStudy: next };
      });
    },
    loadProgress: async (studyId) => {
      const address = get().address;
      if (!address) return;
      const result = await labClientFor(address).studyProgress({ studyId });
      if (result.ok) {
        get().applyProgress([result.value]);
        if (get().progressErrors[studyId]) setError(studyId, undefined);
      } else {
        setError(studyId, result.error.message);
      }
    },
    controlStudy: async (studyId, action) => {
      const address = get().address;
      if (!address || get().pendingControl[studyId]) return;
      set((state) => ({ pendingControl: { ...state.pendingControl, [studyId]: action } }));
      const result = await labClientFor(address).controlStudy({ studyId, action });
      set((state) => ({ pendingControl: { ...state.pendingControl, [studyId]: undefined } }));
      if (result.ok) {
        get().applyProgress([result.value]);
        setError(studyId, undefined);
      } else {
        setError(studyId, result.error.message);
      }
    },
  };
};
