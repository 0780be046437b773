import type { StudiesSlice } from '../features/runs/studies-slice';
import type { WorkspaceSlice } from '../features/settings/workspace-slice';
import type { ConnectionSlice } from './connection-slice';
import type { NavigationSlice } from './navigation-slice';
import type { ThemeSlice } from './theme-slice';

/** The window's one store: every slice, combined in store/index.ts. */
export type AllSlices = ConnectionSlice &
  NavigationSlice &
  ThemeSlice &
  StudiesSlice &
  WorkspaceSlice;
