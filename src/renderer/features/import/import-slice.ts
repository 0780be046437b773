import type { StateCreator } from 'zustand';
import type { LabResponse } from '../../../shared/lab-api';
import type { ImportFormat } from '../../../shared/suite-format';
import { labClientFor } from '../../lib/engine-client';
import type { Loadable } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';

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
}

/** The Import screen: the draft, the engine's last preview or import. */
export interface ImportSlice {
  importDraft: ImportDraft;
  importResult: Loadable<LabResponse<'importRuns'>>;
  setImportDraft: (change: Partial<ImportDraft>) => void;
  /** Reads the path (`save` false: preview only) and keeps the answer for the screen. */
  runImport: (save: boolean) => Promise<void>;
}

export const createImportSlice: StateCreator<AllSlices, [], [], ImportSlice> = (set, get) => ({
  importDraft: { path: '', format: 'auto', name: '', tasksDir: '', keepFlagged: false },
  importResult: { state: 'idle' },
  setImportDraft: (change) => set({ importDraft: { ...get().importDraft, ...change } }),
  runImport: async (save) => {
    const address = get().address;
    const draft = get().importDraft;
    if (!address || !draft.path.trim()) return;
    set({ importResult: { state: 'loading' } });
    const result = await labClientFor(address).importRuns({
      path: draft.path.trim(),
      format: draft.format,
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      ...(draft.tasksDir.trim() ? { tasksDir: draft.tasksDir.trim() } : {}),
      keepFlagged: draft.keepFlagged,
      save,
    });
    set({
      importResult: result.ok
        ? { state: 'loaded', value: result.value }
        : { state: 'failed', error: result.error.message },
    });
  },
});
