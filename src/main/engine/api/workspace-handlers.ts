/** LabApi handlers about the engine itself (lab-api/workspace.ts): liveness and the workspace. */
import { probeDocker } from '../environments';
import { latestVersion } from '../store';
import { engineVersion } from '../version';
import type { DomainHandlers, HandlerContext } from './handlers';

/** The workspace handlers. */
export function workspaceHandlers(
  context: Pick<HandlerContext, 'store' | 'workspace' | 'startedAt'>,
): DomainHandlers<'health' | 'workspaceInfo'> {
  const { store, workspace, startedAt } = context;
  return {
    health: () => ({ status: 'ok', version: engineVersion, workspace: workspace.path, startedAt }),
    workspaceInfo: async () => ({
      path: workspace.path,
      databasePath: store.path,
      schemaVersion: store.schemaVersion,
      latestSchemaVersion: latestVersion(),
      source: workspace.source,
      docker: await probeDocker(),
    }),
  };
}
