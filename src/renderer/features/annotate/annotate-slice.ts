import type { StateCreator } from 'zustand';
import type { LabResponse } from '../../../shared/lab-api';
import { isTableNamed, type ReportTableOf } from '../../charts/table-values';
import { labClientFor } from '../../lib/engine-client';
import { loadedValue, type Loadable } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';
import { mechanismsFor, overTrustSubModes } from '../replay/mechanisms';
import type { FlipPair } from '../replay/replay-slice';
import { rememberAnnotator } from './annotators';

/** The blind labelling queue of one annotator. */
export type LabellingQueue = LabResponse<'labellingQueue'>;
/** A report table (here Table 10, agreement). */
export type ReportTable = ReportTableOf<'agreement'>;

/** The label being chosen for the item on screen. */
export interface AnnotateChoice {
  label: string | null;
  /** Over-trust sub-mode, or null. */
  subMode: string | null;
}

/** Annotate: a named annotator labels a study's flips blind; agreement follows each label. */
export interface AnnotateSlice {
  annotateStudyId: string | null;
  /** Who is labelling; null shows the name picker. */
  annotator: string | null;
  annotateQueue: Loadable<LabellingQueue>;
  /** The pair of the first queue entry, loaded blind (no labels of anyone). */
  annotatePair: Loadable<FlipPair>;
  annotateChoice: AnnotateChoice;
  annotateSaving: { running: boolean; error: string | null };
  /** Table 10 for the study, refreshed after every saved label. */
  annotateAgreement: Loadable<ReportTable>;
  showAnnotateStudy: (studyId: string | null) => Promise<void>;
  /** Starts (or switches to) an annotator; null goes back to the name picker. */
  setAnnotator: (name: string | null) => Promise<void>;
  /** Picks the label under key 1, 2 or 3 for the flip's kind. */
  pickAnnotateLabel: (index: number) => void;
  /** Over-trust only: none → deference → evidence reweighting → none. */
  cycleAnnotateSubMode: () => void;
  /** Saves the chosen label and moves to the next item. */
  saveAnnotateLabel: () => Promise<void>;
  loadAgreement: () => Promise<void>;
}

const noChoice: AnnotateChoice = { label: null, subMode: null };

export const createAnnotateSlice: StateCreator<AllSlices, [], [], AnnotateSlice> = (set, get) => {
  let queueRequest = 0;
  const client = () => {
    const address = get().address;
    return address ? labClientFor(address) : null;
  };
  const loadQueue = async () => {
    const { annotateStudyId: studyId, annotator } = get();
    const api = client();
    if (!studyId || !annotator || !api) return;
    const request = ++queueRequest;
    const previous = loadedValue(get().annotateQueue);
    set({ annotateQueue: { state: 'loading', value: previous } });
    const result = await api.labellingQueue({ studyId, annotator });
    if (request !== queueRequest) return;
    if (!result.ok) {
      set({ annotateQueue: { state: 'failed', error: result.error.message, value: previous } });
      return;
    }
    const next = result.value.entries[0];
    set({
      annotateQueue: { state: 'loaded', value: result.value },
      annotateChoice: noChoice,
      annotatePair: next ? { state: 'loading' } : { state: 'idle' },
    });
    if (!next) return;
    const pair = await api.loadFlipPair({ repId: next.repId, blind: true });
    if (request !== queueRequest) return;
    set({
      annotatePair: pair.ok
        ? { state: 'loaded', value: pair.value }
        : { state: 'failed', error: pair.error.message },
    });
  };
  return {
    annotateStudyId: null,
    annotator: null,
    annotateQueue: { state: 'idle' },
    annotatePair: { state: 'idle' },
    annotateChoice: noChoice,
    annotateSaving: { running: false, error: null },
    annotateAgreement: { state: 'idle' },
    showAnnotateStudy: async (studyId) => {
      if (studyId !== get().annotateStudyId) {
        queueRequest += 1;
        set({
          annotateStudyId: studyId,
          annotateQueue: { state: 'idle' },
          annotatePair: { state: 'idle' },
          annotateChoice: noChoice,
          annotateAgreement: { state: 'idle' },
        });
      }
      await Promise.all([loadQueue(), get().loadAgreement()]);
    },
    setAnnotator: async (name) => {
      queueRequest += 1;
      if (name) rememberAnnotator(name);
      set({
        annotator: name,
        annotateQueue: { state: 'idle' },
        annotatePair: { state: 'idle' },
        annotateChoice: noChoice,
        annotateSaving: { running: false, error: null },
      });
      await loadQueue();
    },
    pickAnnotateLabel: (index) => {
      const pair = loadedValue(get().annotatePair);
      const label = pair ? mechanismsFor(pair.flip.kind)[index]?.id : undefined;
      if (!label) return;
      const keep = label === 'over_trust' ? get().annotateChoice.subMode : null;
      set({ annotateChoice: { label, subMode: keep } });
    },
    cycleAnnotateSubMode: () => {
      const { label, subMode } = get().annotateChoice;
      if (label !== 'over_trust') return;
      const ids: (string | null)[] = [null, ...overTrustSubModes.map((mode) => mode.id)];
      const next = ids[(ids.indexOf(subMode) + 1) % ids.length] ?? null;
      set({ annotateChoice: { label, subMode: next } });
    },
    saveAnnotateLabel: async () => {
      const pair = loadedValue(get().annotatePair);
      const { annotator, annotateChoice: choice } = get();
      const api = client();
      if (!pair || !annotator || !choice.label || !api || get().annotateSaving.running) return;
      set({ annotateSaving: { running: true, error: null } });
      const result = await api.saveHumanLabel({
        repId: pair.cued.repId,
        annotator,
        label: choice.label,
        ...(choice.subMode ? { subMode: choice.subMode } : {}),
      });
      set({ annotateSaving: { running: false, error: result.ok ? null : result.error.message } });
      if (result.ok) await Promise.all([loadQueue(), get().loadAgreement()]);
    },
    loadAgreement: async () => {
      const studyId = get().annotateStudyId;
      const api = client();
      if (!studyId || !api) return;
      const previous = loadedValue(get().annotateAgreement);
      set({ annotateAgreement: { state: 'loading', value: previous } });
      const result = await api.reportTable({ studyId, table: 'agreement' });
      if (get().annotateStudyId !== studyId) return;
      set({
        annotateAgreement:
          result.ok && isTableNamed(result.value, 'agreement')
            ? { state: 'loaded', value: result.value }
            : {
                state: 'failed',
                error: result.ok ? 'The engine answered another table.' : result.error.message,
                value: previous,
              },
      });
    },
  };
};
