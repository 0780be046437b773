import type { AnnotateSlice } from '../features/annotate/annotate-slice';
import type { ImportSlice } from '../features/import/import-slice';
import type { ReplaySlice } from '../features/replay/replay-slice';
import type { BuilderSlice } from '../features/builder/builder-slice';
import type { ProgressSlice } from '../features/runs/progress-slice';
import type { ResultsSlice } from '../features/results/results-slice';
import type { StudiesSlice } from '../features/runs/studies-slice';
import type { EnvironmentSlice } from '../features/settings/environment-slice';
import type { WorkspaceSlice } from '../features/settings/workspace-slice';
import type { ConnectionSlice } from './connection-slice';
import type { NavigationSlice } from './navigation-slice';
import type { ThemeSlice } from './theme-slice';

/** The window's one store: every slice, combined in store/index.ts. */
export type AllSlices = ConnectionSlice &
  NavigationSlice &
  ThemeSlice &
  StudiesSlice &
  BuilderSlice &
  ProgressSlice &
  WorkspaceSlice &
  ResultsSlice &
  EnvironmentSlice &
  ReplaySlice &
  AnnotateSlice &
  ImportSlice;
