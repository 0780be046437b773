/**
 * Cleanup of what a crashed engine left in Docker: containers labelled by an engine process
 * that no longer exists on this host, and (for `cuelab env clean`) item snapshot images.
 */
import { hostname } from 'node:os';
import type Docker from 'dockerode';
import { createDockerClient, withDockerDeadline, dockerLabels, removeContainer } from './client';
import { isProcessAlive } from './lock';

/** CueLab's containers, optionally only those of one item. */
export async function listManagedContainers(
  docker: Docker,
  filter: { item?: string } = {},
  signal?: AbortSignal,
): Promise<Docker.ContainerInfo[]> {
  const label = [`${dockerLabels.managed}=true`];
  if (filter.item) label.push(`${dockerLabels.item}=${filter.item}`);
  return withDockerDeadline(
    (abortSignal) => docker.listContainers({ all: true, filters: { label }, abortSignal }),
    signal ? { signal } : {},
  );
}

/**
 * True when `container` belongs to an engine process on this host that has exited. Containers
 * of another host, or without a valid pid label, are never judged orphans.
 */
export function isOrphan(
  container: Docker.ContainerInfo,
  alive: (pid: number) => boolean = isProcessAlive,
): boolean {
  const labels = container.Labels ?? {};
  const host = labels[dockerLabels.engineHost];
  if (host !== undefined && host !== hostname()) return false;
  const pid = Number(labels[dockerLabels.enginePid]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  return !alive(pid);
}

/**
 * Removes every CueLab container whose engine process is gone; resolves to their ids. Call it
 * when the engine starts, so a crash never leaves containers running. Every Docker call has a
 * deadline, and `signal` (the engine stopping) abandons the cleanup at once.
 */
export async function removeOrphans(
  options: { docker?: Docker; alive?: (pid: number) => boolean; signal?: AbortSignal } = {},
): Promise<string[]> {
  const docker = options.docker ?? createDockerClient();
  const { signal } = options;
  const orphans = (await listManagedContainers(docker, {}, signal)).filter((container) =>
    isOrphan(container, options.alive),
  );
  for (const container of orphans) {
    signal?.throwIfAborted();
    await removeContainer(docker, container.Id, signal);
  }
  return orphans.map((container) => container.Id);
}

/** CueLab images of `kind` (`item`, `build` or `base`). */
export async function listManagedImages(
  docker: Docker,
  kind: 'item' | 'build' | 'base',
): Promise<Docker.ImageInfo[]> {
  return docker.listImages({ filters: { label: [`${dockerLabels.kind}=${kind}`] } });
}

/**
 * Removes item snapshot images and images built from spec Dockerfiles (both are rebuilt on
 * demand). An image a running container still uses is kept and reported.
 */
export async function removeItemImages(
  options: { docker?: Docker } = {},
): Promise<{ removed: string[]; kept: { id: string; reason: string }[] }> {
  const docker = options.docker ?? createDockerClient();
  const removed: string[] = [];
  const kept: { id: string; reason: string }[] = [];
  // Items first: a built image is the parent of item snapshots made from it.
  for (const kind of ['item', 'build'] as const) {
    for (const image of await listManagedImages(docker, kind)) {
      try {
        await docker.getImage(image.Id).remove({ force: true });
        removed.push(image.Id);
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 404) continue;
        kept.push({ id: image.Id, reason: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return { removed, kept };
}
