/**
 * The engine: one workspace, its database, the LabApi handlers and the event hub. The HTTP
 * server and the CLI both drive this object; neither knows about the other.
 */
import type { LabEventMessage } from '../../shared/lab-api';
import type { LabHandlers } from './api/handlers';
import { probeDocker } from './environments/docker-status';
import { EventHub } from './events';
import { latestVersion, openStore, type Store } from './store/database';
import { listStudies } from './store/studies';
import { listSuites } from './store/suites';
import { getSuiteItem, getSuiteTaxonomies } from './store/suite-items';
import { previewPrompt } from './judge/preview';
import { repConditionSchema } from '../../shared/rep-condition';
import { engineVersion } from './version';
import { databasePath, ensureWorkspace, type WorkspaceLocation } from './workspace';

/** A running engine over one workspace. */
export interface Engine {
  readonly workspace: WorkspaceLocation;
  readonly store: Store;
  readonly events: EventHub;
  readonly handlers: LabHandlers;
  readonly startedAt: string;
  /** The first event a new subscriber receives. */
  hello(): LabEventMessage;
  /** Closes the database; idempotent. */
  close(): void;
}

/** Opens the workspace (creating and migrating its database) and builds the handlers. */
export function createEngine(workspace: WorkspaceLocation): Engine {
  ensureWorkspace(workspace);
  const store = openStore(databasePath(workspace.path));
  const events = new EventHub();
  const startedAt = new Date().toISOString();

  const handlers: LabHandlers = {
    health: () => ({ status: 'ok', version: engineVersion, workspace: workspace.path, startedAt }),
    workspaceInfo: async () => ({
      path: workspace.path,
      databasePath: store.path,
      schemaVersion: store.schemaVersion,
      latestSchemaVersion: latestVersion(),
      source: workspace.source,
      docker: await probeDocker(),
    }),
    listSuites: () => listSuites(store),
    listStudies: (request) => listStudies(store, request.limit),
    previewPrompt: (request) =>
      previewPrompt(
        getSuiteItem(store, request.suiteId, request.itemId),
        getSuiteTaxonomies(store, request.suiteId),
        request.condition ?? repConditionSchema.parse({}),
      ),
  };

  return {
    workspace,
    store,
    events,
    handlers,
    startedAt,
    hello: () => ({
      stream: 'engine.hello',
      data: { version: engineVersion, workspace: workspace.path, startedAt },
    }),
    close: () => store.close(),
  };
}
