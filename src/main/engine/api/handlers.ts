/**
 * The engine side of the LabApi map: one handler per method, and what every domain's handler
 * file may use of the engine around it (so a new domain needs no new wiring in engine.ts).
 */
import type { z } from 'zod';
import type { LabEventMessage, LabMethod, LabResponse, labMethods } from '../../../shared/lab-api';
import type { DockerHostPool } from '../environments';
import type { EndpointTrust } from '../providers';
import type { Store } from '../store';
import type { EngineWorkers } from '../workers';
import type { WorkspaceLocation } from '../workspace';
import type { EnvironmentService } from './environment-service';
import type { Secrets } from './secrets';
import type { TableDraws } from './table-draws';
import type { EncodedAnswer, EncodedMethod } from './encoded-answer';

/** The engine side of one method: takes the parsed request, returns the response value. */
export type LabHandler<M extends LabMethod> = (
  request: z.output<(typeof labMethods)[M]['request']>,
) => Promise<HandlerAnswer<M>> | HandlerAnswer<M>;

/** What a handler answers: its value, or for an export that value already encoded. */
type HandlerAnswer<M extends LabMethod> = M extends EncodedMethod
  ? LabResponse<M> | EncodedAnswer<LabResponse<M>>
  : LabResponse<M>;

/** One handler per LabApi method; the compiler keeps this complete. */
export type LabHandlers = { [M in LabMethod]: LabHandler<M> };

/** The handlers of some methods (what one domain's handler file answers). */
export type DomainHandlers<M extends LabMethod> = Pick<LabHandlers, M>;

/** What the handlers need of the engine they run in. */
export interface HandlerContext {
  readonly store: Store;
  /**
   * The engine's worker threads (workers/pool.ts): heavy work (table drawing, files, long
   * reads) runs there, each lane on its own connection, so this thread keeps answering.
   */
  readonly workers: EngineWorkers;
  /** Studies' tables drawn in the reports worker, one study at a time (table-draws.ts). */
  readonly tableDraws: TableDraws;
  readonly workspace: WorkspaceLocation;
  /** ISO time the engine started (health). */
  readonly startedAt: string;
  /** The session's API keys: providers and ensemble voters find theirs here, exports redact them. */
  readonly secrets: Secrets;
  readonly environment: EnvironmentService;
  /** What the user allowed so far (their environment plus endpoints confirmed this session). */
  readonly trust: () => EndpointTrust;
  /** Records endpoints the user confirmed in the window (createStudy's trustedEndpoints). */
  readonly trustEndpoints: (endpoints: readonly string[]) => void;
  /** The runner's Docker host pool while it runs (live host counts), else null. */
  readonly runningPool: () => DockerHostPool | null;
  /** Pushes an event to every subscriber (the CLI follows classify's progress this way). */
  readonly publish: (event: LabEventMessage) => void;
  /** A study was created, controlled or relabelled (wakes the runner, publishes progress). */
  readonly onStudyChanged: (studyId: string) => void;
  /** A suite was stored (the window's suite lists refresh). */
  readonly onSuiteSaved: (suiteId: string) => void;
}
