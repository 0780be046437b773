/**
 * Where a judge rep's tools act: a Docker rep container, or the no-exec snapshot.
 *
 * The fallback rule (`backend: 'auto'`, the default):
 * - The item needs Docker when its spec asks for a shell (`shell: true`) or when its end state
 *   can only be made by running something (`setup`, `replay`, `image`, `dockerfile`).
 *   Such an item uses Docker when Docker answers; when it does not, provisioning fails with
 *   the problem and the exact fix (never a silent downgrade that would hide the shell tool).
 * - Every other item (only `files` and a SQLite `database`) uses the snapshot backend, even
 *   when Docker runs: it starts in milliseconds and offers the same read-only tools.
 * `backend: 'docker'` always uses Docker (the same error when it is down); `backend:
 * 'snapshot'` always uses the snapshot and refuses an item that needs Docker.
 */
import type Docker from 'dockerode';
import { environmentSpecSchema, type EnvironmentSpec } from '../../../shared/suite-format';
import type { Trajectory } from '../../../shared/trajectory';
import { EngineError } from '../errors';
import { checkDockerHealth, DockerDownError, type DockerHealth } from './docker-health';
import { createDockerClient, type ContainerOwner } from './docker/client';
import { prepareItem } from './docker/prepare';
import type { PrewarmTarget } from './docker/prewarm';
import { startRep } from './docker/rep';
import { provisionSnapshotEnvironment, type ProvisionedEnvironment } from './snapshot';
import {
  containerStateOf,
  layerSubstrates,
  type LayerOptions,
  type WebBackend,
  type WebRecording,
} from '../substrates';

/** Which backend to use; `auto` applies the rule above. */
export type EnvironmentBackend = 'docker' | 'snapshot' | 'auto';

/** Options of `provisionEnvironment`. */
export interface ProvisionOptions {
  backend?: EnvironmentBackend;
  /** Aborting removes whatever was created (a rep container included). */
  signal?: AbortSignal;
  docker?: Docker;
  /** Lines worth showing while an item snapshot is prepared (first rep only). */
  onProgress?: (line: string) => void;
  /** The workspace and study a rep container serves (its labels). */
  owner?: ContainerOwner;
  /** Where a web item's tools get their answers; default its own offline snapshot. */
  webBackend?: WebBackend;
  /** A rep container made ahead is taken from here, and the next one made (docker only). */
  prewarm?: PrewarmTarget;
  /** Called when the item's snapshot was built for this rep (not reused), with its seconds. */
  onImageBuilt?: (seconds: number) => void;
  /** A snapshot folder stays this long after its last rep for the item's next (snapshot.ts). */
  keepSnapshotMs?: number;
}

/** A provisioned environment and the backend that serves it. */
export interface ProvisionedJudgeEnvironment extends ProvisionedEnvironment {
  backend: 'docker' | 'snapshot';
  /** What a live web backend fetched for this rep (stored with it, so its replay is offline). */
  webRecording?: WebRecording;
}

/** True when the spec cannot be served without running commands in a container. */
export function specNeedsDocker(spec: EnvironmentSpec): boolean {
  return (
    spec.shell ||
    containerStateOf(spec) !== undefined ||
    (spec.setup?.length ?? 0) > 0 ||
    spec.replay === true ||
    spec.image !== undefined ||
    spec.dockerfile !== undefined
  );
}

/**
 * The backend for `spec`: `requested`, or the fallback rule for `auto`. `dockerHealth` is
 * asked only when the answer depends on it (a patient ping: a slow daemon is asked again).
 * Throws when the spec and the backend cannot meet; DockerDownError when Docker is down, which
 * the runner turns into a pause of the study, never a failed rep.
 */
export async function chooseBackend(
  spec: EnvironmentSpec,
  requested: EnvironmentBackend,
  dockerHealth: () => Promise<DockerHealth>,
): Promise<'docker' | 'snapshot'> {
  const needsDocker = specNeedsDocker(spec);
  if (requested === 'snapshot') {
    if (needsDocker) {
      throw new EngineError(
        'bad_request',
        'This item needs a container (a shell, setup commands, replay, or its own image); ' +
          'the snapshot backend cannot serve it. Use the docker or auto backend.',
      );
    }
    return 'snapshot';
  }
  if (requested === 'auto' && !needsDocker) return 'snapshot';
  const health = await dockerHealth();
  if (!health.up) {
    throw new DockerDownError(
      health,
      "This item needs Docker (the judge gets a shell in the agent's environment)",
    );
  }
  return 'docker';
}

/**
 * Provisions the environment one judge rep investigates. For Docker, the item's snapshot is
 * prepared once (reused by later reps) and the rep gets a fresh container from it. The caller
 * disposes the result on every path.
 */
export async function provisionEnvironment(
  spec: EnvironmentSpec,
  item: { id: string; trajectory?: Trajectory },
  options: ProvisionOptions = {},
): Promise<ProvisionedJudgeEnvironment> {
  const docker = options.docker ?? createDockerClient();
  const backend = await chooseBackend(spec, options.backend ?? 'auto', () =>
    checkDockerHealth(docker),
  );
  options.signal?.throwIfAborted();
  const layers: LayerOptions = options.webBackend ? { webBackend: options.webBackend } : {};
  if (backend === 'snapshot') {
    const snapshot = await provisionSnapshotEnvironment(spec, item.id, {
      ...(options.keepSnapshotMs ? { keepMs: options.keepSnapshotMs } : {}),
    });
    return {
      ...snapshot,
      environment: layerSubstrates(snapshot.environment, spec, layers),
      backend,
    };
  }
  const prepared = await prepareItem(spec, item.id, {
    docker,
    ...(item.trajectory ? { trajectory: item.trajectory } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  if (!prepared.reused) options.onImageBuilt?.(prepared.seconds);
  const rep = await startRep(prepared, {
    docker,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.owner ? { owner: options.owner } : {}),
    ...(options.prewarm ? { prewarm: options.prewarm } : {}),
  });
  const environment = layerSubstrates(rep.environment, spec, layers);
  return { environment, dispose: () => rep.dispose(), backend };
}

/** An empty folder: all a judge that reads only the trajectory is given (no container). */
const trajectoryOnlySpec: EnvironmentSpec = environmentSpecSchema.parse({ files: {} });

/**
 * The environment of a rep whose judge reads only the trajectory (the synthetic judge on an
 * item without probes decides from the trajectory and its persona, never from a tool): an
 * empty snapshot folder, so such reps need no container and run without Docker.
 */
export async function provisionTrajectoryOnly(): Promise<ProvisionedJudgeEnvironment> {
  const snapshot = await provisionSnapshotEnvironment(trajectoryOnlySpec, 'trajectory-only');
  return { ...snapshot, backend: 'snapshot' };
}
