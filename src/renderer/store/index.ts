/**
 * The window's one zustand store, made of typed slices (CONVENTIONS.md, "Renderer"). Modules
 * outside React (engine connection, shortcuts, hash route) use `labStore`; components select
 * narrowly with `useLab`.
 */
import { createStore, useStore, type StoreApi } from 'zustand';
import { createAnnotateSlice } from '../features/annotate/annotate-slice';
import { createImportSlice } from '../features/import/import-slice';
import { createReplaySlice } from '../features/replay/replay-slice';
import { createBuilderSlice } from '../features/builder/builder-slice';
import { createProgressSlice } from '../features/runs/progress-slice';
import { createResultsSlice } from '../features/results/results-slice';
import { createStudiesSlice } from '../features/runs/studies-slice';
import { createEnvironmentSlice } from '../features/settings/environment-slice';
import { createWorkspaceSlice } from '../features/settings/workspace-slice';
import { readStoredThemePreference, readSystemTheme } from '../lib/theme';
import { sectionFromHash } from '../sections';
import { createConnectionSlice } from './connection-slice';
import { createNavigationSlice } from './navigation-slice';
import { createThemeSlice } from './theme-slice';
import type { AllSlices } from './types';

export type { AllSlices } from './types';

/** The store type every non-React module takes. */
export type LabStore = StoreApi<AllSlices>;

/** Creates a store; the window makes one, in main.tsx. */
export function createLabStore(): LabStore {
  const themeSlice = createThemeSlice(readStoredThemePreference(), readSystemTheme());
  const store = createStore<AllSlices>()((...args) => ({
    ...createConnectionSlice(...args),
    ...createNavigationSlice(...args),
    ...themeSlice(...args),
    ...createStudiesSlice(...args),
    ...createBuilderSlice(...args),
    ...createProgressSlice(...args),
    ...createWorkspaceSlice(...args),
    ...createResultsSlice(...args),
    ...createEnvironmentSlice(...args),
    ...createReplaySlice(...args),
    ...createImportSlice(...args),
    ...createAnnotateSlice(...args),
  }));
  store.getState().setSection(sectionFromHash(window.location.hash));
  return store;
}

/** The window's store. */
export const labStore: LabStore = createLabStore();

/** Selects from the window's store; select narrowly, `useShallow` for derived lists. */
export function useLab<T>(selector: (state: AllSlices) => T): T {
  return useStore(labStore, selector);
}
