import type { StateCreator } from 'zustand';
import type { CueFamilyEntry } from '../../../shared/cue-family';
import type { LabResponse, PromptPreview, SuiteSummary } from '../../../shared/lab-api';
import type { CueDirection } from '../../../shared/cue-spec';
import { labClientFor } from '../../lib/engine-client';
import { loadedValue, type Loadable } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';
import { draftArms, draftProblems, draftToSpec, type BuilderDraft } from './builder-draft';
import { expandCuedConditions, uncuedKey, uncuedRepeatKey } from './conditions';
import { readStoredDraft, storeDraft } from './draft-storage';

/** An item as the builder lists it. */
export type SuiteItemSummary = LabResponse<'listSuiteItems'>[number];
/** The engine's summary of a spec before launch. */
export type StudyEstimate = LabResponse<'estimateStudy'>;

/** Which prompt the preview shows: a condition (or the control) on one item, one direction. */
export interface PreviewTarget {
  conditionKey: string;
  itemId: string;
  direction: CueDirection;
}

/** A line under the builder's header after a save or an open. */
export interface BuilderNotice {
  kind: 'ok' | 'error';
  text: string;
}

/** The builder: the draft, what the engine said about it, and the prompt preview. */
export interface BuilderSlice {
  /** The design being edited (kept across reloads). */
  draft: BuilderDraft;
  /** Suites in the workspace. */
  suites: Loadable<SuiteSummary[]>;
  /** The cue-family registry (built-ins and the workspace's) and files it refused. */
  cueFamilies: Loadable<{ families: CueFamilyEntry[]; problems: string[] }>;
  loadCueFamilies: () => Promise<void>;
  /** Imports a family file's text; resolves to an error message, or null when it was imported. */
  importCueFamily: (text: string, name: string) => Promise<string | null>;
  /** Items of the draft's suite. */
  suiteItems: Loadable<SuiteItemSummary[]> & { suiteId?: string };
  /** The engine's estimate, and the spec text it was made for. */
  estimate: Loadable<StudyEstimate> & { specText?: string };
  /** The open prompt preview, if any. */
  preview: { target: PreviewTarget; result: Loadable<PromptPreview> } | null;
  /**
   * The last launch attempt. `confirm`: a judge's endpoint is not its provider's own host, so
   * the user is asked before the key and prompts go there.
   */
  launch:
    | { state: 'idle' | 'launching' }
    | { state: 'failed'; error: string }
    | { state: 'confirm'; endpoints: string[] };
  /** The last save or open, in words (a file name, or why it failed). */
  builderNotice: BuilderNotice | null;
  setBuilderNotice: (notice: BuilderNotice | null) => void;
  /** Changes the draft (and keeps it). */
  updateDraft: (change: (draft: BuilderDraft) => Partial<BuilderDraft>) => void;
  /** Replaces the whole draft (a loaded spec, or a fresh design). */
  replaceDraft: (draft: BuilderDraft) => void;
  loadSuites: () => Promise<void>;
  loadSuiteItems: (suiteId: string) => Promise<void>;
  /** Asks the engine to estimate the draft as it is now. */
  requestEstimate: () => Promise<void>;
  openPreview: (target: PreviewTarget) => Promise<void>;
  closePreview: () => void;
  /**
   * Creates the study; resolves to its id, or null when it failed or needs the user to confirm
   * endpoints first (see `launch`). `trustedEndpoints`: the endpoints the user confirmed.
   */
  launchStudy: (trustedEndpoints?: string[]) => Promise<string | null>;
  /** Closes the endpoint confirmation without launching. */
  cancelLaunch: () => void;
}

export const createBuilderSlice: StateCreator<AllSlices, [], [], BuilderSlice> = (set, get) => {
  let estimateRequest = 0;
  let previewRequest = 0;
  const client = () => {
    const address = get().address;
    return address ? labClientFor(address) : null;
  };
  const setDraft = (draft: BuilderDraft) => {
    set({ draft, launch: { state: 'idle' } });
    storeDraft(draft);
  };

  return {
    draft: readStoredDraft(),
    suites: { state: 'idle' },
    suiteItems: { state: 'idle' },
    cueFamilies: { state: 'idle' },
    estimate: { state: 'idle' },
    preview: null,
    launch: { state: 'idle' },
    builderNotice: null,
    setBuilderNotice: (notice) => set({ builderNotice: notice }),
    updateDraft: (change) => setDraft({ ...get().draft, ...change(get().draft) }),
    replaceDraft: (draft) => setDraft(draft),

    loadSuites: async () => {
      const lab = client();
      if (!lab) return;
      const previous = loadedValue(get().suites);
      set({ suites: { state: 'loading', value: previous } });
      const result = await lab.listSuites({});
      if (!result.ok) {
        set({ suites: { state: 'failed', error: result.error.message, value: previous } });
        return;
      }
      set({ suites: { state: 'loaded', value: result.value } });
      const { draft } = get();
      const known = result.value.some((suite) => suite.id === draft.suiteId);
      if (!known && result.value.length > 0) {
        const first = result.value.find((suite) => suite.origin === 'builtin') ?? result.value[0];
        if (first) get().updateDraft(() => ({ suiteId: first.id, itemIds: [], itemFilter: null }));
      }
    },

    loadCueFamilies: async () => {
      const lab = client();
      if (!lab) return;
      const result = await lab.listCueFamilies({});
      set({
        cueFamilies: result.ok
          ? { state: 'loaded', value: result.value }
          : { state: 'failed', error: result.error.message },
      });
    },

    importCueFamily: async (text, name) => {
      const lab = client();
      if (!lab) return 'The engine is not connected.';
      const result = await lab.importCueFamily({ text, name });
      if (!result.ok) return result.error.message;
      await get().loadCueFamilies();
      return null;
    },

    loadSuiteItems: async (suiteId) => {
      const lab = client();
      if (!lab) return;
      const current = get().suiteItems;
      const previous = current.suiteId === suiteId ? loadedValue(current) : undefined;
      set({ suiteItems: { state: 'loading', value: previous, suiteId } });
      const result = await lab.listSuiteItems({ suiteId });
      if (get().draft.suiteId !== suiteId) return;
      set({
        suiteItems: result.ok
          ? { state: 'loaded', value: result.value, suiteId }
          : { state: 'failed', error: result.error.message, value: previous, suiteId },
      });
    },

    requestEstimate: async () => {
      const lab = client();
      const { draft } = get();
      if (!lab || draftProblems(draft).length > 0) {
        set({ estimate: { state: 'idle' } });
        return;
      }
      const spec = draftToSpec(draft);
      const specText = JSON.stringify(spec);
      const request = ++estimateRequest;
      const previous = loadedValue(get().estimate);
      set({ estimate: { state: 'loading', value: previous, specText } });
      const result = await lab.estimateStudy({ spec });
      if (request !== estimateRequest) return;
      set({
        estimate: result.ok
          ? { state: 'loaded', value: result.value, specText }
          : { state: 'failed', error: result.error.message, specText },
      });
    },

    openPreview: async (target) => {
      const lab = client();
      if (!lab) return;
      const { draft } = get();
      const request = ++previewRequest;
      const current = get().preview;
      const previous = current ? loadedValue(current.result) : undefined;
      set({ preview: { target, result: { state: 'loading', value: previous } } });
      const families = loadedValue(get().cueFamilies)?.families.map((entry) => entry.family);
      const cell = expandCuedConditions({ ...draftArms(draft), families }).find(
        (condition) => condition.key === target.conditionKey,
      );
      const condition =
        target.conditionKey === uncuedKey || target.conditionKey === uncuedRepeatKey || !cell
          ? { dimension: draft.dimension, seed: draft.seed }
          : {
              dimension: draft.dimension,
              seed: draft.seed,
              cue: cell.cue,
              direction: target.direction,
              placement: cell.placement,
              mitigations: cell.mitigations,
            };
      const result = await lab.previewPrompt({
        suiteId: draft.suiteId,
        itemId: target.itemId,
        condition,
      });
      if (request !== previewRequest) return;
      set({
        preview: {
          target,
          result: result.ok
            ? { state: 'loaded', value: result.value }
            : { state: 'failed', error: result.error.message },
        },
      });
    },
    closePreview: () => {
      previewRequest += 1;
      set({ preview: null });
    },

    launchStudy: async (trustedEndpoints) => {
      const lab = client();
      const { draft, launch, estimate } = get();
      if (!lab || launch.state === 'launching' || draftProblems(draft).length > 0) return null;
      const endpoints = (loadedValue(estimate)?.warnings ?? []).flatMap((warning) =>
        warning.code === 'untrusted_endpoint' && warning.endpoint ? [warning.endpoint] : [],
      );
      if (!trustedEndpoints && endpoints.length > 0) {
        set({ launch: { state: 'confirm', endpoints } });
        return null;
      }
      set({ launch: { state: 'launching' } });
      const result = await lab.createStudy({
        spec: draftToSpec(draft),
        ...(trustedEndpoints ? { trustedEndpoints } : {}),
      });
      if (!result.ok) {
        set({ launch: { state: 'failed', error: result.error.message } });
        return null;
      }
      set({ launch: { state: 'idle' } });
      return result.value.studyId;
    },
    cancelLaunch: () => set({ launch: { state: 'idle' } }),
  };
};
