/**
 * Images without a registry: import a root filesystem (a folder, a tarball or a stream) with
 * `docker import`, build from a Dockerfile with a tar context made in memory, and pull only
 * when a registry is reachable and the image is not already here.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { EngineError } from '../../errors';
import { packArchive } from './archive';
import type { BuildCaps } from './build-policy';
import { isNotFound } from './client';

/** The `ENV PATH` change every imported image gets (an imported rootfs has no environment). */
export const defaultPathChange =
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** A root filesystem to import. */
export type RootfsSource = { directory: string } | { tarball: string } | { stream: Readable };

/** The image `reference` names, or undefined when it is not here. */
export async function findImage(
  docker: Docker,
  reference: string,
): Promise<Docker.ImageInspectInfo | undefined> {
  try {
    return await docker.getImage(reference).inspect();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Imports a root filesystem as `tags[0]` (and tags it with the rest), applying Dockerfile
 * `changes` (e.g. `ENV PATH=...`, `LABEL k=v`). Resolves to the image id.
 */
export async function importRootfsImage(
  docker: Docker,
  options: {
    source: RootfsSource;
    tags: readonly string[];
    changes?: string[];
    signal?: AbortSignal;
  },
): Promise<string> {
  const [primary, ...others] = options.tags;
  if (!primary) throw new Error('importRootfsImage needs at least one tag');
  options.signal?.throwIfAborted();
  const { stream, done } = openRootfs(options.source, options.signal);
  try {
    const { repo, tag } = splitReference(primary);
    const response = (await docker.importImage(stream, {
      repo,
      tag,
      changes: options.changes ?? [defaultPathChange],
      ...(options.signal ? { abortSignal: options.signal } : {}),
    })) as unknown as Readable;
    await followDockerStream(docker, response, `importing ${primary}`);
    await done;
  } finally {
    stream.destroy();
  }
  for (const reference of others) await tagImage(docker, primary, reference);
  const image = await findImage(docker, primary);
  if (!image) throw new EngineError('internal', `docker import did not create ${primary}`);
  return image.Id;
}

/**
 * Builds `dockerfile` (with `context` files beside it) as `tag`; resolves to the image id.
 * `FROM` may name a local image (e.g. `cuelab/base:latest`), or a registry image where a
 * registry answers; a suite's Dockerfile passes build-policy.ts first. RUN steps get `caps`
 * (default: no network, the judge's default memory and CPU, ten minutes). Build output lines
 * go to `onOutput`.
 */
export async function buildImageFromDockerfile(
  docker: Docker,
  options: {
    dockerfile: string;
    tag: string;
    context?: Record<string, string | Buffer>;
    labels?: Record<string, string>;
    caps?: BuildCaps;
    signal?: AbortSignal;
    onOutput?: (line: string) => void;
  },
): Promise<string> {
  options.signal?.throwIfAborted();
  const caps = options.caps ?? defaultBuildCaps;
  const context = await packArchive([
    { path: 'Dockerfile', content: options.dockerfile },
    ...Object.entries(options.context ?? {}).map(([path, content]) => ({ path, content })),
  ]);
  const timeout = AbortSignal.timeout(caps.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = (await docker.buildImage(context as unknown as NodeJS.ReadableStream, {
      t: options.tag,
      rm: true,
      forcerm: true,
      networkmode: caps.networkMode,
      memory: caps.memoryBytes,
      // No swap beyond the memory limit, as the judge's container (MemorySwap = Memory).
      memswap: caps.memoryBytes,
      cpuperiod: 100_000,
      cpuquota: Math.round(caps.cpus * 100_000),
      ...(options.labels ? { labels: options.labels } : {}),
      abortSignal: signal,
    })) as Readable;
    await followDockerStream(docker, response, `building ${options.tag}`, (event) => {
      const text = typeof event.stream === 'string' ? event.stream.trimEnd() : '';
      if (text) options.onOutput?.(text);
    });
  } catch (error) {
    options.signal?.throwIfAborted();
    if (timeout.aborted) {
      throw new EngineError(
        'bad_request',
        `Docker stopped building ${options.tag}: it did not finish within ` +
          `${caps.timeoutMs / 60_000} min (the build time limit).`,
      );
    }
    throw error;
  }
  const image = await findImage(docker, options.tag);
  if (!image) throw new EngineError('internal', `docker build did not create ${options.tag}`);
  return image.Id;
}

/** Caps of a build that names none: the judge container's defaults, ten minutes. */
const defaultBuildCaps: BuildCaps = {
  networkMode: 'none',
  memoryBytes: 1024 * 1024 * 1024,
  cpus: 1,
  timeoutMs: 10 * 60_000,
};

/** Makes sure `reference` is here: pulls it when absent (works only where a registry answers). */
export async function ensureImage(
  docker: Docker,
  reference: string,
  signal?: AbortSignal,
): Promise<Docker.ImageInspectInfo> {
  const present = await findImage(docker, reference);
  if (present) return present;
  try {
    const response = (await docker.pull(
      reference,
      signal ? { abortSignal: signal } : {},
    )) as Readable;
    await followDockerStream(docker, response, `pulling ${reference}`);
  } catch (error) {
    signal?.throwIfAborted();
    throw new EngineError(
      'bad_request',
      `The image ${reference} is not on this machine and could not be pulled ` +
        `(${error instanceof Error ? error.message : String(error)}). Where a registry ` +
        `answers, run: docker pull ${reference} (or cuelab env pull SUITE for all of a ` +
        "suite's images). Or build or import it, or leave `image` out to use the CueLab " +
        'base image (cuelab env bootstrap).',
    );
  }
  const pulled = await findImage(docker, reference);
  if (!pulled) throw new EngineError('internal', `pulling ${reference} did not create it`);
  return pulled;
}

/** Adds `target` (repo:tag) as another name of image `source`. */
export async function tagImage(docker: Docker, source: string, target: string): Promise<void> {
  const { repo, tag } = splitReference(target);
  await docker.getImage(source).tag({ repo, tag });
}

/** Splits `repo:tag` (a registry port in `repo` is kept); the tag defaults to `latest`. */
export function splitReference(reference: string): { repo: string; tag: string } {
  const colon = reference.lastIndexOf(':');
  if (colon > reference.lastIndexOf('/')) {
    return { repo: reference.slice(0, colon), tag: reference.slice(colon + 1) };
  }
  return { repo: reference, tag: 'latest' };
}

/** Follows a Docker progress stream to its end; rejects on an `error` event in it. */
export async function followDockerStream(
  docker: Docker,
  stream: Readable,
  what: string,
  onEvent?: (event: { stream?: unknown; status?: unknown }) => void,
): Promise<void> {
  const events = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null, output: Record<string, unknown>[]) =>
        error ? reject(error) : resolve(output),
      onEvent,
    );
  });
  const failure = events.find((event) => event.error !== undefined);
  if (failure) throw new EngineError('internal', `Docker failed ${what}: ${String(failure.error)}`);
}

function openRootfs(
  source: RootfsSource,
  signal: AbortSignal | undefined,
): { stream: Readable; done: Promise<void> } {
  if ('stream' in source) return { stream: source.stream, done: Promise.resolve() };
  if ('tarball' in source)
    return { stream: createReadStream(source.tarball), done: Promise.resolve() };
  // Numeric owners keep root-owned files root-owned whatever users this host has.
  const tar = spawn('tar', ['--numeric-owner', '-C', source.directory, '-c', '.'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(signal ? { signal } : {}),
  });
  let stderr = '';
  tar.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const done = new Promise<void>((resolve, reject) => {
    tar.on('error', reject);
    tar.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`tar exited with ${code}: ${stderr.trim()}`)),
    );
  });
  // Observed through `await done` by the caller; this keeps an early failure from going unhandled.
  done.catch(() => undefined);
  return { stream: tar.stdout, done };
}
