/**
 * Judge reps: every rep gets a fresh container from the item's snapshot image, so nothing one
 * rep does is visible to another. The container is labelled for orphan cleanup and removed on
 * every path: `dispose`, an abort of the rep's signal, or a failure while starting.
 */
import type Docker from 'dockerode';
import type { ProvisionedEnvironment } from '../snapshot';
import { createDockerClient, removeContainer, type ContainerOwner } from './client';
import { DockerJudgeEnvironment } from './judge-environment';
import { containerRun, type PreparedItem } from './prepare';
import { createRepContainer, startRepContainer, type PrewarmTarget } from './prewarm';

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
  /** Take a container made ahead, and make the next one while this rep runs. */
  prewarm?: PrewarmTarget;
}

/** Starts a fresh container from `prepared`'s snapshot. The caller must `dispose` it. */
export async function startRep(
  prepared: PreparedItem,
  options: StartRepOptions = {},
): Promise<DockerRep> {
  const { signal } = options;
  signal?.throwIfAborted();
  const docker = options.docker ?? createDockerClient();
  const ahead = options.prewarm;
  const made = ahead ? await ahead.warm.take(ahead.host, prepared, options.owner) : undefined;
  const container = made ?? (await createRepContainer(docker, prepared, options.owner));
  // The next rep of this item is made while this one runs (see prewarm.ts).
  ahead?.warm.prepareNext(ahead.host, docker, prepared, options.owner);
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
    // One made ahead is started already.
    if (!made) await startRepContainer(container);
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
