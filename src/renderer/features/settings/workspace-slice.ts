import type { StateCreator } from 'zustand';
import type { WorkspaceInfo } from '../../../shared/lab-api';
import { labClientFor } from '../../lib/engine-client';
import { loadedValue, type Loadable } from '../../lib/loadable';
import type { AllSlices } from '../../store/types';

/** The workspace as Settings shows it: paths, schema version, Docker. */
export interface WorkspaceSlice {
  /** The engine's last `workspaceInfo` answer. */
  workspace: Loadable<WorkspaceInfo>;
  /** Asks the engine again (it probes Docker on every call). */
  loadWorkspace: () => Promise<void>;
}

export const createWorkspaceSlice: StateCreator<AllSlices, [], [], WorkspaceSlice> = (set, get) => {
  let latestRequest = 0;
  return {
    workspace: { state: 'idle' },
    loadWorkspace: async () => {
      const address = get().address;
      if (!address) return;
      const request = ++latestRequest;
      const previous = loadedValue(get().workspace);
      set({ workspace: { state: 'loading', value: previous } });
      const result = await labClientFor(address).workspaceInfo({});
      if (request !== latestRequest) return;
      set({
        workspace: result.ok
          ? { state: 'loaded', value: result.value }
          : { state: 'failed', error: result.error.message, value: previous },
      });
    },
  };
};
