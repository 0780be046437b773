/**
 * `cuelab env pull SUITE`: every image a suite's items start from, pulled where a
 * registry answers, with progress; an image that cannot be pulled is named with the exact
 * `docker pull` to run, and the others still go on.
 */
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { SuiteItem } from '../../../../shared/suite-format';
import { findImage } from '../../environments';

/** What happened to one image. */
export interface PulledImage {
  image: string;
  /** Items that need it. */
  items: number;
  state: 'present' | 'pulled' | 'failed';
  /** For a failure: the reason and the command to run. */
  problem?: string;
}

/** Distinct images the items name, with how many items need each, in first-use order. */
export function suiteImages(items: readonly SuiteItem[]): Map<string, number> {
  const images = new Map<string, number>();
  for (const item of items) {
    const image = item.environment.image;
    if (image) images.set(image, (images.get(image) ?? 0) + 1);
  }
  return images;
}

/** The exact command a user runs to fetch `image` where a registry answers. */
export function pullCommand(image: string): string {
  return `docker pull ${image}`;
}

/** Pulls each image not already here; `onProgress` gets one line per Docker status change. */
export async function pullSuiteImages(
  docker: Docker,
  items: readonly SuiteItem[],
  options: { signal?: AbortSignal; onProgress?: (line: string) => void } = {},
): Promise<PulledImage[]> {
  const results: PulledImage[] = [];
  for (const [image, count] of suiteImages(items)) {
    options.signal?.throwIfAborted();
    if (await findImage(docker, image)) {
      results.push({ image, items: count, state: 'present' });
      continue;
    }
    try {
      await pull(docker, image, options);
      results.push({ image, items: count, state: 'pulled' });
    } catch (error) {
      options.signal?.throwIfAborted();
      results.push({
        image,
        items: count,
        state: 'failed',
        problem: `${(error as Error).message.split('\n')[0]}; where a registry answers, run: ${pullCommand(image)}`,
      });
    }
  }
  return results;
}

async function pull(
  docker: Docker,
  image: string,
  options: { signal?: AbortSignal; onProgress?: (line: string) => void },
): Promise<void> {
  const stream = (await docker.pull(
    image,
    options.signal ? { abortSignal: options.signal } : {},
  )) as Readable;
  let last = '';
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null, events: { error?: unknown }[]) => {
        const failed = events?.find((event) => event.error !== undefined);
        if (error) reject(error);
        else if (failed) reject(new Error(String(failed.error)));
        else resolve();
      },
      (event: { status?: unknown; id?: unknown; progress?: unknown }) => {
        const line = [event.id, event.status, event.progress].filter(Boolean).map(String).join(' ');
        if (line && line !== last) options.onProgress?.(`${image}: ${line}`);
        last = line;
      },
    );
  });
}
