/**
 * Judge reps: every rep gets a fresh container from the item's snapshot image, so nothing one
 * rep does is visible to another. The container is labelled for orphan cleanup and removed on
 * every path: `dispose`, an abort of the rep's signal, or a failure while starting.
 */
import type Docker from 'dockerode';
import type { ProvisionedEnvironment } from '../snapshot';
import {
  containerLabels,
  createDockerClient,
  removeContainer,
  withDockerDeadline,
  type ContainerOwner,
} from './client';
import { containerHostConfig, keepAliveCommand } from './item-settings';
import { DockerJudgeEnvironment } from './judge-environment';
import { containerRun, type PreparedItem } from './prepare';

// Creating or starting a container on a busy machine can take seconds, never a minute.
const repStartTimeoutMs = 60_000;

/** A running rep container. */
export interface DockerRep extends ProvisionedEnvironment {
  containerId: string;
}

/** Options of `startRep`. */
export interface StartRepOptions {
  /** Aborting it removes the container (and fails any command in flight). */
  signal?: AbortSignal;
  docker?: Docker;
  /** The workspace and study the rep belongs to, put on the container as labels. */
  owner?: ContainerOwner;
}

/** Starts a fresh container from `prepared`'s snapshot. The caller must `dispose` it. */
export async function startRep(
  prepared: PreparedItem,
  options: StartRepOptions = {},
): Promise<DockerRep> {
  const { signal } = options;
  signal?.throwIfAborted();
  const docker = options.docker ?? createDockerClient();
  // A hung Docker engine fails the rep (retried) instead of holding it forever. Not the
  // rep's signal: a create abandoned halfway would leave a container we know no id of.
  const container = await withDockerDeadline(
    (abortSignal) =>
      docker.createContainer({
        Image: prepared.image,
        Cmd: keepAliveCommand,
        User: prepared.settings.user,
        WorkingDir: prepared.settings.workdir,
        Labels: containerLabels(prepared.itemId, 'rep', options.owner),
        HostConfig: containerHostConfig(prepared.settings),
        abortSignal,
      }),
    { ms: repStartTimeoutMs },
  );
  let removal: Promise<void> | undefined;
  const dispose = (): Promise<void> => {
    signal?.removeEventListener('abort', onAbort);
    removal ??= removeContainer(docker, container.id);
    return removal;
  };
  const onAbort = () => void dispose().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    // A deadline only: an abort of the rep is handled by dispose.
    await withDockerDeadline((abortSignal) => container.start({ abortSignal }), {
      ms: repStartTimeoutMs,
    });
    signal?.throwIfAborted();
    // A substrate's process (a PostgreSQL server), stopped cleanly in the snapshot.
    await prepared.state?.start(containerRun(container), signal);
  } catch (error) {
    await dispose();
    throw error;
  }
  return {
    containerId: container.id,
    environment: new DockerJudgeEnvironment(container, prepared),
    dispose,
  };
}

/** Runs `work` in a fresh rep and removes the rep afterwards, whatever `work` does. */
export async function withRep<T>(
  prepared: PreparedItem,
  work: (rep: DockerRep) => Promise<T>,
  options: StartRepOptions = {},
): Promise<T> {
  const rep = await startRep(prepared, options);
  try {
    return await work(rep);
  } finally {
    await rep.dispose();
  }
}
