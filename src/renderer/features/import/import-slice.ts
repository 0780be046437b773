import type { StateCreator } from 'zustand';
import type { LabResponse } from '../../../shared/lab-api';
import type { ImportFormat } from '../../../shared/suite-format';
import { labClientFor } from '../../lib/engine-client';
import type { Loadable } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';
import { dropProblem, uploadDrop, type Drop, type UploadProgress } from './drop-upload';

/** What the Import screen asks the engine to read. */
export interface ImportDraft {
  /** A folder or file on the engine's machine. */
  path: string;
  format: 'auto' | ImportFormat;
  /** Suite name; empty: the folder's name. */
  name: string;
  /** Folder of task definitions, or empty. */
  tasksDir: string;
  keepFlagged: boolean;
  /** Store runs another imported suite already holds (refused by default). */
  allowDuplicate: boolean;
}

/** Where the upload of a drop stands. */
export type ImportUpload =
  | { state: 'idle' }
  | ({ state: 'uploading'; name: string } & UploadProgress)
  | { state: 'failed'; error: string }
  | { state: 'cancelled'; name: string }
  | { state: 'done'; name: string; files: number; bytes: number };

/** The Import screen: the draft, the engine's last preview or import. */
export interface ImportSlice {
  importDraft: ImportDraft;
  importResult: Loadable<LabResponse<'importRuns'>>;
  /** True when the last preview or import was cancelled (the screen says "Cancelled"). */
  importCancelled: boolean;
  importUpload: ImportUpload;
  setImportDraft: (change: Partial<ImportDraft>) => void;
  /** Uploads a drop to the engine (a browser gives no path), then previews what it imports. */
  uploadDropped: (drop: Drop) => Promise<void>;
  /** Sends no further piece of the upload under way (Cancel asks the engine to stop its piece). */
  cancelUpload: () => void;
  /** Reads the path (`save` false: preview only) and keeps the answer for the screen. */
  runImport: (save: boolean) => Promise<void>;
}

let previewTimer: ReturnType<typeof setTimeout> | undefined;
/** Counts the reads asked for: only the latest one's answer reaches the screen. */
let lastRead = 0;
/** The path of the last read asked for: a re-preview follows the draft only while it holds. */
let readPath = '';
/** True while an import (a save) is under way: no preview may replace its answer. */
let saving = false;
/** The upload under way: aborted by `cancelUpload`. */
let uploading: AbortController | undefined;

export const createImportSlice: StateCreator<AllSlices, [], [], ImportSlice> = (set, get) => ({
  importDraft: {
    path: '',
    format: 'auto',
    name: '',
    tasksDir: '',
    keepFlagged: false,
    allowDuplicate: false,
  },
  importResult: { state: 'idle' },
  importCancelled: false,
  importUpload: { state: 'idle' },
  setImportDraft: (change) => {
    set({ importDraft: { ...get().importDraft, ...change } });
    // A preview on screen follows the draft: renaming the suite (or changing the format or the
    // tasks folder) previews again, a moment after the typing stops.
    // A new path waits for Preview: the re-preview of the old one is dropped, and the preview
    // on screen (of the old path) is not read again under the new one.
    clearTimeout(previewTimer);
    const shown = get().importResult;
    if (shown.state !== 'loaded' || shown.value.saved || 'path' in change) return;
    if (get().importDraft.path.trim() !== readPath) return;
    previewTimer = setTimeout(() => void get().runImport(false), 400);
  },
  uploadDropped: async (drop) => {
    const address = get().address;
    if (!address || get().importUpload.state === 'uploading') return;
    const problem = dropProblem(drop);
    if (problem) {
      set({ importUpload: { state: 'failed', error: problem } });
      return;
    }
    const totalBytes = drop.files.reduce((sum, entry) => sum + entry.file.size, 0);
    const start = { files: 0, bytes: 0, totalFiles: drop.files.length, totalBytes };
    set({ importUpload: { state: 'uploading', name: drop.name, ...start } });
    const controller = new AbortController();
    uploading = controller;
    const uploaded = await uploadDrop(
      labClientFor(address),
      drop,
      (progress) => set({ importUpload: { state: 'uploading', name: drop.name, ...progress } }),
      controller.signal,
    ).finally(() => {
      if (uploading === controller) uploading = undefined;
    });
    if (!uploaded.ok) {
      set({
        importUpload: uploaded.cancelled
          ? { state: 'cancelled', name: drop.name }
          : { state: 'failed', error: uploaded.error },
      });
      return;
    }
    set({
      importUpload: { state: 'done', name: drop.name, files: drop.files.length, bytes: totalBytes },
    });
    // The staged folder is a path like any other: the same preview, then "Import as suite".
    get().setImportDraft({
      path: uploaded.path,
      ...(get().importDraft.name.trim() ? {} : { name: drop.name }),
    });
    await get().runImport(false);
  },
  cancelUpload: () => uploading?.abort(),
  runImport: async (save) => {
    const address = get().address;
    const draft = get().importDraft;
    if (!address || !draft.path.trim()) return;
    // Asked now: a re-preview still waiting on the typing would only repeat it.
    clearTimeout(previewTimer);
    // An import under way is answered first (stored or refused); a dropped folder's preview
    // then waits for Preview.
    if (saving) return;
    saving = save;
    const read = ++lastRead;
    readPath = draft.path.trim();
    set({ importResult: { state: 'loading' }, importCancelled: false });
    const result = await labClientFor(address)
      .importRuns({
        path: draft.path.trim(),
        format: draft.format,
        ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
        ...(draft.tasksDir.trim() ? { tasksDir: draft.tasksDir.trim() } : {}),
        keepFlagged: draft.keepFlagged,
        ...(draft.allowDuplicate ? { allowDuplicate: true } : {}),
        save,
      })
      .finally(() => {
        if (save) saving = false;
      });
    // An earlier read answering late never replaces the later one's answer (or its wait).
    if (read !== lastRead) return;
    if (!result.ok && result.error.code === 'cancelled') {
      set({ importResult: { state: 'idle' }, importCancelled: true });
      return;
    }
    set({
      importResult: result.ok
        ? { state: 'loaded', value: result.value }
        : { state: 'failed', error: result.error.message },
    });
  },
});
