/**
 * What the builder's buttons and commands do (launch, save, open, start over). Both the
 * buttons and commands.ts call these, so a shortcut and a click are one code path.
 */
import type { StoreApi } from 'zustand';
import { navigateToStudy } from '../runs/run-route';
import type { AllSlices } from '../../store/types';
import { defaultDraft, draftToSpec, specToDraft } from './builder-draft';
import { openSpecWithDialog, readSpecFile, saveSpecFile, type SpecFileResult } from './spec-files';

/**
 * Creates the study from the draft and shows it under Runs; `trustedEndpoints` are the custom
 * endpoints the user confirmed (without them, the builder asks first).
 */
export async function launchFromBuilder(
  store: StoreApi<AllSlices>,
  trustedEndpoints?: string[],
): Promise<void> {
  const studyId = await store.getState().launchStudy(trustedEndpoints);
  if (studyId) navigateToStudy(studyId);
}

/** Saves the draft as the spec file `cuelab run` takes. */
export async function saveDraftSpec(store: StoreApi<AllSlices>): Promise<void> {
  const state = store.getState();
  try {
    const where = await saveSpecFile(draftToSpec(state.draft));
    if (where) state.setBuilderNotice({ kind: 'ok', text: `Saved ${where}` });
  } catch (error) {
    state.setBuilderNotice({ kind: 'error', text: `Could not save the spec: ${describe(error)}` });
  }
}

/** Puts a spec file's design into the builder, or says why it cannot. */
export function applySpecFile(store: StoreApi<AllSlices>, result: SpecFileResult): void {
  const state = store.getState();
  if (!result.ok) {
    state.setBuilderNotice({ kind: 'error', text: result.message });
    return;
  }
  state.replaceDraft(specToDraft(result.spec));
  state.closePreview();
  state.setBuilderNotice({ kind: 'ok', text: `Opened ${result.fileName}` });
}

/** Opens a spec: the native dialog in the desktop app, a file picker in a browser. */
export async function openSpec(store: StoreApi<AllSlices>): Promise<void> {
  try {
    if (window.cuelab) {
      const result = await openSpecWithDialog();
      if (result) applySpecFile(store, result);
      return;
    }
    const file = await pickFile();
    if (file) applySpecFile(store, await readSpecFile(file));
  } catch (error) {
    store
      .getState()
      .setBuilderNotice({ kind: 'error', text: `Could not open the spec: ${describe(error)}` });
  }
}

/** Starts a fresh design on the same suite. */
export function newDesign(store: StoreApi<AllSlices>): void {
  const state = store.getState();
  state.replaceDraft({ ...defaultDraft(), suiteId: state.draft.suiteId });
  state.closePreview();
  state.setBuilderNotice(null);
}

/** A one-off file input: works from a click or a key press (both count as user activation). */
function pickFile(): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,.yaml,.yml,application/json';
    input.hidden = true;
    const finish = (file: File | null) => {
      input.remove();
      resolve(file);
    };
    input.addEventListener('change', () => finish(input.files?.[0] ?? null), { once: true });
    input.addEventListener('cancel', () => finish(null), { once: true });
    document.body.append(input);
    input.click();
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
