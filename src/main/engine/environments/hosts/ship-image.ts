/**
 * Copies an image from one Docker engine to another over the API (`docker save | docker load`
 * without the CLI), for hosts that cannot pull: the base image judge containers start from, or an
 * item's task image. Progress is reported in bytes of the image tarball.
 */
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import { formatBytes } from '../docker/bootstrap';
import { findImage, followDockerStream, tagImage } from '../docker/images';

/** Progress of one copy. */
export interface ShipProgress {
  image: string;
  bytesSent: number;
  /** The image's size on the source (the tarball is about this large). */
  bytesTotal: number;
}

/**
 * Copies `image` (and tags `alsoTag` on the target) unless the target has it already. Resolves to
 * true when it copied.
 */
export async function shipImage(options: {
  source: Docker;
  target: Docker;
  image: string;
  alsoTag?: readonly string[];
  signal?: AbortSignal;
  onProgress?: (progress: ShipProgress) => void;
}): Promise<boolean> {
  const { source, target, image } = options;
  if (await findImage(target, image)) return false;
  const info = await findImage(source, image);
  if (!info) throw new Error(`cannot ship ${image}: it is not on the source engine either`);
  options.signal?.throwIfAborted();
  const tarball = (await source.getImage(image).get()) as Readable;
  let bytesSent = 0;
  let lastReport = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytesSent += chunk.length;
      if (bytesSent - lastReport >= 16 * 1024 * 1024) {
        lastReport = bytesSent;
        options.onProgress?.({ image, bytesSent, bytesTotal: info.Size });
      }
      done(null, chunk);
    },
  });
  const loading = pipeline(tarball, counter, {
    signal: options.signal ?? new AbortController().signal,
  });
  const response = (await target.loadImage(counter, { quiet: true })) as unknown as Readable;
  await Promise.all([loading, followDockerStream(target, response, `loading ${image}`)]);
  options.onProgress?.({ image, bytesSent, bytesTotal: info.Size });
  for (const reference of options.alsoTag ?? []) await tagImage(target, image, reference);
  return true;
}

/** "shipping cuelab/base:… to gpu-box: 128 MB of 262 MB". */
export function describeShipProgress(hostId: string, progress: ShipProgress): string {
  return (
    `shipping ${progress.image} to ${hostId}: ${formatBytes(progress.bytesSent)} of ` +
    `${formatBytes(progress.bytesTotal)}`
  );
}
