/**
 * The Docker connection every backend function shares, the labels CueLab puts on what it
 * creates, and the error shown when Docker is missing or stopped.
 */
import type Docker from 'dockerode';
import { newDocker } from '../docker-lib';
import { hostname } from 'node:os';
import { EngineError } from '../../errors';
import { probeDocker } from '../docker-status';

/** Label keys on every container and image CueLab creates (used to find and clean them). */
export const dockerLabels = {
  /** "true" on everything CueLab manages. */
  managed: 'cuelab.managed',
  /** Process id of the engine that created a container; orphaned when that pid is gone. */
  enginePid: 'cuelab.engine-pid',
  /** Host name of that engine: a pid is only meaningful on its own host. */
  engineHost: 'cuelab.engine-host',
  /** The suite item a container or snapshot image serves. */
  item: 'cuelab.item',
  /** What it is: `prepare` or `rep` (containers); `base`, `build` or `item` (images). */
  kind: 'cuelab.kind',
  /** Tools the snapshot image offers (comma-separated), recorded at its health check. */
  tools: 'cuelab.tools',
  /** The workspace folder whose study a rep container serves. */
  workspace: 'cuelab.workspace',
  /** The study a rep container serves. */
  study: 'cuelab.study',
  /** "true" on a rep container made before its rep came (prewarm.ts); labels never change. */
  madeAhead: 'cuelab.made-ahead',
} as const;

/** The repository of the bootstrapped base image. */
export const baseImageRepository = 'cuelab/base';
/** The repository of per-item snapshot images. */
export const itemImageRepository = 'cuelab/item';
/** The repository of images built from a spec's Dockerfile. */
export const buildImageRepository = 'cuelab/build';

/** Docker is missing or stopped: the message names the problem and the exact fix. */
export class DockerUnavailableError extends EngineError {
  constructor(problem: string, fix: string) {
    super('internal', `${problem} Fix:\n${fix}`);
    this.name = 'DockerUnavailableError';
  }
}

/** A client for the local Docker engine (honours DOCKER_HOST, like the docker CLI). */
export function createDockerClient(): Docker {
  return newDocker();
}

/**
 * Returns a client once Docker answers; throws DockerUnavailableError (with the fix from
 * docker-status.ts) when it does not.
 */
export async function requireDocker(docker: Docker = createDockerClient()): Promise<Docker> {
  const status = await probeDocker(5000, docker);
  if (!status.available) {
    throw new DockerUnavailableError(
      status.problem ?? 'Docker is not reachable.',
      status.fix ?? 'Start Docker.',
    );
  }
  return docker;
}

/** Which workspace and study a rep container serves (labels, so `docker ps` can tell). */
export interface ContainerOwner {
  workspace?: string;
  study?: string;
}

/** Labels for a container this engine process creates for `item`. */
export function containerLabels(
  item: string,
  kind: 'prepare' | 'rep',
  owner: ContainerOwner = {},
): Record<string, string> {
  return {
    [dockerLabels.managed]: 'true',
    [dockerLabels.enginePid]: String(process.pid),
    [dockerLabels.engineHost]: hostname(),
    [dockerLabels.item]: item,
    [dockerLabels.kind]: kind,
    ...(owner.workspace ? { [dockerLabels.workspace]: owner.workspace } : {}),
    ...(owner.study ? { [dockerLabels.study]: owner.study } : {}),
  };
}

/** True for Docker's "no such container/image" answer (already gone is fine when removing). */
export function isNotFound(error: unknown): boolean {
  return (error as { statusCode?: number } | null)?.statusCode === 404;
}

/** How long one Docker control call (list, inspect, remove …) may take before it is abandoned. */
export const dockerCallTimeoutMs = 30_000;

/**
 * Runs one Docker call with a deadline of `ms` (a hung Docker engine never holds a rep or the
 * engine's shutdown), abandoned earlier when `signal` aborts; the error names the deadline.
 * The timer is cleared when the call ends, so nothing stays armed for the rep's lifetime.
 */
export async function withDockerDeadline<T>(
  call: (abortSignal: AbortSignal) => Promise<T>,
  options: { signal?: AbortSignal; ms?: number } = {},
): Promise<T> {
  const { signal } = options;
  const ms = options.ms ?? dockerCallTimeoutMs;
  signal?.throwIfAborted();
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`Docker did not answer within ${ms / 1000} s.`)),
    ms,
  );
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Removes a container whatever its state, and returns once it is gone. A container that is
 * already gone is not an error; one another path is removing (409) is waited for. Each call
 * to Docker has a deadline; `signal` abandons the wait.
 */
export async function removeContainer(
  docker: Docker,
  id: string,
  signal?: AbortSignal,
): Promise<void> {
  const container = docker.getContainer(id);
  try {
    await withDockerDeadline(
      (abortSignal) => container.remove({ force: true, v: true, abortSignal }),
      signal ? { signal } : {},
    );
    return;
  } catch (error) {
    if (isNotFound(error)) return;
    if ((error as { statusCode?: number } | null)?.statusCode !== 409) throw error;
  }
  for (let attempt = 0; attempt < 100; attempt += 1) {
    signal?.throwIfAborted();
    try {
      await withDockerDeadline(
        (abortSignal) => container.inspect({ abortSignal }),
        signal ? { signal } : {},
      );
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`container ${id} is still being removed after 10 s`);
}
