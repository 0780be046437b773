import type { StateCreator } from 'zustand';
import type { LabResponse } from '../../../shared/lab-api';
import { labClientFor } from '../../lib/engine-client';
import { loadedValue, type Loadable } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';

/** A flipped cued rep as the Replay list shows it. */
export type FlipSummary = LabResponse<'listFlips'>[number];
/** A flipped rep beside its uncued twin. */
export type FlipPair = LabResponse<'loadFlipPair'>;

/** Replay: the flipped reps of one study and the pair on screen. */
export interface ReplaySlice {
  /** The study whose flips are listed. */
  replayStudyId: string | null;
  replayFlips: Loadable<FlipSummary[]>;
  /** The rep whose pair is open. */
  replayRepId: string | null;
  replayPair: Loadable<FlipPair>;
  /** Set while classifyStudy runs; the message of a failure after. */
  replayClassify: { running: boolean; error: string | null };
  /** Lists a study's flips (again); clears what belonged to another study. */
  showReplayStudy: (studyId: string | null) => Promise<void>;
  /** Opens a pair (not blind: the diff classifier's reading is shown). */
  openReplayPair: (repId: string | null) => Promise<void>;
  /** Labels every flip of the study with the diff classifier, then lists them again. */
  classifyReplayFlips: () => Promise<void>;
}

export const createReplaySlice: StateCreator<AllSlices, [], [], ReplaySlice> = (set, get) => {
  let flipsRequest = 0;
  let pairRequest = 0;
  const client = () => {
    const address = get().address;
    return address ? labClientFor(address) : null;
  };
  return {
    replayStudyId: null,
    replayFlips: { state: 'idle' },
    replayRepId: null,
    replayPair: { state: 'idle' },
    replayClassify: { running: false, error: null },
    showReplayStudy: async (studyId) => {
      if (studyId !== get().replayStudyId) {
        set({ replayStudyId: studyId, replayFlips: { state: 'idle' } });
      }
      const api = client();
      if (!studyId || !api) return;
      const request = ++flipsRequest;
      const previous = loadedValue(get().replayFlips);
      set({ replayFlips: { state: 'loading', value: previous } });
      const result = await api.listFlips({ studyId });
      if (request !== flipsRequest) return;
      set({
        replayFlips: result.ok
          ? { state: 'loaded', value: result.value }
          : { state: 'failed', error: result.error.message, value: previous },
      });
    },
    openReplayPair: async (repId) => {
      const request = ++pairRequest;
      if (repId === get().replayRepId && get().replayPair.state === 'loaded') return;
      set({ replayRepId: repId, replayPair: repId ? { state: 'loading' } : { state: 'idle' } });
      const api = client();
      if (!repId || !api) return;
      const result = await api.loadFlipPair({ repId, blind: false });
      if (request !== pairRequest) return;
      set({
        replayPair: result.ok
          ? { state: 'loaded', value: result.value }
          : { state: 'failed', error: result.error.message },
      });
    },
    classifyReplayFlips: async () => {
      const studyId = get().replayStudyId;
      const api = client();
      if (!studyId || !api) return;
      set({ replayClassify: { running: true, error: null } });
      const result = await api.classifyStudy({ studyId });
      set({ replayClassify: { running: false, error: result.ok ? null : result.error.message } });
      await get().showReplayStudy(studyId);
    },
  };
};
