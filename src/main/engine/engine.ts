/**
 * The engine: one workspace, its database, the LabApi handlers and the event hub. The HTTP
 * server and the CLI both drive this object; neither knows about the other. In serve mode it
 * also runs the workspace's studies in the background (`startRunner`).
 */
import type { LabEventMessage } from '../../shared/lab-api';
import {
  createEnvironmentService,
  createLabHandlers,
  createTableDraws,
  type LabHandlers,
  createSecrets,
} from './api';
import { combineTrust, trustFromEnv, type EndpointTrust } from './providers';
import {
  HeldPauses,
  requeueOrphanedJobs,
  StudyRunner,
  studyProgress,
  workspaceRunnerDeps,
} from './runner';
import { type DockerHostPool, isProcessAlive } from './environments';
import { EventHub } from './events';
import { openStore, type Store, namedStoreDamage } from './store';
import { fillSearchIndex } from './store/faces/reps';
import { readStudySpecRecord } from './store/faces/studies';
import { builtinSuiteIds, refreshBuiltinSuite } from './suites';
import { attachStore } from './engine-store';
import { createEngineWorkers } from './workers';
import { engineVersion } from './version';
import { loadWorkspaceFamilies } from './judge';
import { databasePath, ensureWorkspace, type WorkspaceLocation } from './workspace';

// What the command line needs besides LabApi (its errors, its version): it imports only this
// entry and the api face (lint rule cuelab/cli-engine-entry).
export { EngineError } from './errors';
export { ProviderError } from './providers';
export { engineVersion } from './version';
export { databasePath, workspaceForProcess } from './workspace';
/** Containers a stopped engine left on this machine's Docker (local commands remove them). */
export { removeOrphans } from './environments';

/** A running engine over one workspace. */
export interface Engine {
  readonly workspace: WorkspaceLocation;
  readonly events: EventHub;
  readonly handlers: LabHandlers;
  readonly startedAt: string;
  /** The first event a new subscriber receives. */
  hello(): LabEventMessage;
  /**
   * Brings the built-in suites current now: for a long-lived engine to call before it says it
   * is ready, so the re-import after an upgrade (a parse and a write, 300-450 ms) does not hold
   * up the first requests. `startRunner` does it too (then a stat and a read per suite).
   */
  refreshBuiltinSuites(studyIds?: readonly string[]): void;
  /** Runs the workspace's studies (or only `studyIds`) in the background until `close`. */
  startRunner(options?: RunnerStartOptions): void;
  /**
   * Draws, in the reports worker and one at a time, every study not running whose stored
   * tables are missing or stale (an older engine's, a run interrupted by quitting), most
   * recently updated first, publishing `study.tables`; resolves to how many it drew. For a
   * long-lived engine (serve, the desktop shell), not a short command.
   */
  warmTables(): Promise<number>;
  /**
   * Starts the reads worker (workers/pool.ts) and opens its connection in the background, so the
   * window's first workbench page does not wait for a thread to start. For a long-lived engine.
   */
  warmReads(): void;
  /** Resolves once the runner has nothing left to do; to a storage problem if one stopped it. */
  whenRunnerIdle(): Promise<string | null>;
  /** Grants what the person at this process allowed (CLI flags); never from a file or a client. */
  grantTrust(grant: EndpointTrust): void;
  /** Stops the runner; in-flight reps go back to the queue. */
  stopRunner(): Promise<void>;
  /** Closes the database (stop the runner first); idempotent. */
  close(): void;
}

/** How `startRunner` runs: how many reps at once, which studies, where provisioning talks. */
export interface RunnerStartOptions {
  concurrency?: number;
  /** Only these studies (the CLI's `run`); default every study of the workspace. */
  studyIds?: string[];
  /** Lines about image builds and environment provisioning. */
  onProvisionProgress?: (line: string) => void;
  /** Told how many reps a stopped engine left running went back to the queue (when any). */
  onRequeued?: (count: number) => void;
}

/**
 * Every handler's failure that is damage SQLite met while reading (a malformed JSON value, a
 * damaged page) becomes `store_unreadable` naming where, not an internal error.
 */
function nameStoreDamage(handlers: LabHandlers, store: Store): void {
  const table = handlers as unknown as Record<string, (request: unknown) => unknown>;
  for (const [method, handler] of Object.entries(table)) {
    // Keeps a synchronous handler synchronous: callers in process (the CLI, tests) use its value.
    table[method] = (request: unknown) => {
      try {
        const result = handler(request);
        return result instanceof Promise
          ? result.catch((error: unknown) => {
              throw namedStoreDamage(store, error);
            })
          : result;
      } catch (error) {
        throw namedStoreDamage(store, error);
      }
    };
  }
}

/** The suite ids `studyIds` judge items of (a study whose spec cannot be read names none). */
function studySuites(store: Store, studyIds: readonly string[]): string[] {
  const suites = studyIds.map((studyId) => {
    try {
      return readStudySpecRecord(store, studyId)?.suite;
    } catch {
      return undefined; // a damaged study fails by name where the runner reads it
    }
  });
  return [...new Set(suites.filter((suite): suite is string => typeof suite === 'string'))];
}

/** Opens the workspace (creating and migrating its database) and builds the handlers. */
export function createEngine(workspace: WorkspaceLocation): Engine {
  ensureWorkspace(workspace);
  // The workspace's own cue families join the registry (a broken file is listed by
  // listCueFamilies, never fatal here).
  loadWorkspaceFamilies(workspace.path);
  const store = openStore(databasePath(workspace.path));
  // Heavy jobs run on worker threads, each lane with its own connection; none starts until used.
  const workers = createEngineWorkers(databasePath(workspace.path));
  const events = new EventHub();
  const startedAt = new Date().toISOString();
  const secrets = createSecrets(process.env);
  // Endpoints the user confirmed in the window this session; never stored, never from a file.
  const confirmedEndpoints = new Set<string>();
  const allowedKeyEnvNames = new Set<string>();
  const trust = () =>
    combineTrust(trustFromEnv(process.env), {
      endpoints: [...confirmedEndpoints],
      keyEnvNames: [...allowedKeyEnvNames],
    });
  const environment = createEnvironmentService(events);
  let runner: StudyRunner | null = null;
  let hostPool: DockerHostPool | null = null;
  let closed = false;
  const pending = new Map<string, NodeJS.Timeout>();
  const lastStatus = new Map<string, string>();

  // Pauses a full disk keeps from being written, shown from memory meanwhile.
  const heldPauses = new HeldPauses();
  // Reps stored before the search index existed are indexed a batch (≤ 25 ms) at a time, with
  // a pause between batches so requests are answered meanwhile (store/search-index.ts).
  let searchFill: NodeJS.Timeout | null = null;
  const fillSearch = () => {
    searchFill = null;
    if (closed) return;
    let more = false;
    try {
      const fill = fillSearchIndex(store, { budgetMs: 25 });
      more = fill.pending > 0 && fill.indexed > 0;
    } catch {
      // A busy or full disk: the next open tries again, and search notes what is not indexed.
    }
    if (more) searchFill = setTimeout(fillSearch, 10).unref();
  };
  searchFill = setTimeout(fillSearch, 0).unref();
  /** Publishes a study's progress at most every 250 ms, always including the last change. */
  const publishProgress = (studyId: string, force = false) => {
    const send = () => {
      pending.delete(studyId);
      try {
        const progress = heldPauses.apply(studyProgress(store, studyId));
        events.publish({ stream: 'study.progress', data: progress });
        // The list of studies changes on create and on a status move, not with every rep.
        if (force || lastStatus.get(studyId) !== progress.status) {
          events.publish({ stream: 'studies.changed', data: { studyId } });
        }
        lastStatus.set(studyId, progress.status);
      } catch {
        // The study may have been removed meanwhile; nothing to report.
      }
    };
    if (force) {
      clearTimeout(pending.get(studyId));
      send();
    } else if (!pending.has(studyId)) {
      pending.set(studyId, setTimeout(send, 250));
    }
  };

  const publish = (event: LabEventMessage) => events.publish(event);
  // Studies' tables drawn in the reports worker: after a run, on start, for a stale study.
  const tableDraws = createTableDraws({ store, workers, publish });
  const handlers: LabHandlers = createLabHandlers({
    store,
    workers,
    tableDraws,
    workspace,
    startedAt,
    secrets,
    environment,
    trust,
    trustEndpoints: (endpoints) => {
      for (const endpoint of endpoints) confirmedEndpoints.add(endpoint);
    },
    runningPool: () => hostPool,
    publish,
    onStudyChanged: (id) => publishProgress(id, true),
    onSuiteSaved: (suiteId) => events.publish({ stream: 'suites.changed', data: { suiteId } }),
  });
  const storedProgress = handlers.studyProgress;
  handlers.studyProgress = async (request) => heldPauses.apply(await storedProgress(request));
  nameStoreDamage(handlers, store);

  const engine: Engine = {
    workspace,
    events,
    handlers,
    startedAt,
    hello: () => ({
      stream: 'engine.hello',
      data: { version: engineVersion, workspace: workspace.path, startedAt },
    }),
    refreshBuiltinSuites(studyIds) {
      if (closed) return;
      for (const id of studyIds ? studySuites(store, studyIds) : builtinSuiteIds) {
        try {
          refreshBuiltinSuite(store, id);
        } catch {
          // A build without resources still serves imported suites.
        }
      }
    },
    startRunner(options = {}) {
      // After close() there is no database to run on (a late caller must not crash us).
      if (runner || closed) return;
      // The built-in suites the runner may claim reps of are current before it starts: every one
      // for the whole workspace, only its studies' own for the CLI's `run` (whose items the
      // runner reads from the store; a listing imports the others, suite-handlers.ts).
      engine.refreshBuiltinSuites(options.studyIds);
      const requeued = requeueOrphanedJobs(store, isProcessAlive);
      if (requeued > 0) options.onRequeued?.(requeued);
      const deps = {
        ...workspaceRunnerDeps(store, {
          env: secrets.env,
          trust,
          ...(options.onProvisionProgress
            ? { onProvisionProgress: options.onProvisionProgress }
            : {}),
        }),
        // A stopped study's tables are drawn in the reports worker, not on this thread.
        drawTables: (studyId: string) => tableDraws.draw(studyId),
      };
      hostPool = deps.hostPool;
      runner = new StudyRunner(deps, {
        concurrency: options.concurrency ?? 4,
        ...(options.studyIds ? { studyIds: options.studyIds } : {}),
        onChange: (studyId) => publishProgress(studyId),
        onStorageFault: (studyIds, reason) => {
          heldPauses.hold(studyIds, reason);
          for (const id of studyIds) publishProgress(id, true);
        },
      });
      runner.start();
    },
    async whenRunnerIdle() {
      const current = runner;
      if (!current) return null;
      await current.whenIdle();
      return current.storageProblem;
    },
    grantTrust(grant) {
      for (const endpoint of grant.endpoints) confirmedEndpoints.add(endpoint);
      for (const name of grant.keyEnvNames) allowedKeyEnvNames.add(name);
    },
    warmTables() {
      if (closed) return Promise.resolve(0);
      return tableDraws.warm();
    },
    warmReads() {
      // A page asked for meanwhile queues behind it; a failure here is the first page's to say.
      if (!closed) workers.run('reads', 'warmUp', {}).catch(() => undefined);
    },
    async stopRunner() {
      const current = runner;
      runner = null;
      // A drawing under way is not waited for: the next start's warm pass finishes it.
      if (current) tableDraws.cancel();
      if (current) await current.stop();
      hostPool?.close();
      hostPool = null;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
    close: () => {
      closed = true;
      if (searchFill) clearTimeout(searchFill);
      // Jobs waiting or running fail as cancelled at once; the threads stop in the background.
      tableDraws.close();
      void workers.close();
      store.close();
    },
  };
  // Kept beside the engine, not on it: what the CLI and the server hold reaches no table.
  attachStore(engine, store);
  return engine;
}
