import type { StateCreator } from 'zustand';
import type { StudySummary } from '../../../shared/lab-api';
import { labClientFor } from '../../lib/engine-client';
import { loadedValue, type Loadable } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';

/** The studies the Runs page lists, newest first. */
export interface StudiesSlice {
  /** The last list the engine gave. */
  studies: Loadable<StudySummary[]>;
  /** Asks the engine for the list again; a newer call supersedes an older one. */
  loadStudies: () => Promise<void>;
}

export const createStudiesSlice: StateCreator<AllSlices, [], [], StudiesSlice> = (set, get) => {
  let latestRequest = 0;
  return {
    studies: { state: 'idle' },
    loadStudies: async () => {
      const address = get().address;
      if (!address) return;
      const request = ++latestRequest;
      const previous = loadedValue(get().studies);
      set({ studies: { state: 'loading', value: previous } });
      const result = await labClientFor(address).listStudies({});
      if (request !== latestRequest) return;
      set({
        studies: result.ok
          ? { state: 'loaded', value: result.value }
          : { state: 'failed', error: result.error.message, value: previous },
      });
    },
  };
};
