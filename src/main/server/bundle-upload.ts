/**
 * A bundle streamed as the raw body of `POST /api/openBundle` (content type
 * application/gzip): written to a private temporary file as it arrives, never held in memory,
 * cut off past the engine's bundle limit, then opened by path like the CLI's, and removed.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { failure, type LabResult } from '../../shared/result';
import { bundleContentType, maxBundleBytes } from '../../shared/transport-limits';

/** True when `request` streams a bundle rather than posting JSON. */
export function isBundleUpload(request: IncomingMessage): boolean {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === bundleContentType || type === 'application/octet-stream';
}

/** What the upload came to: a result to send, with its HTTP status when it never reached the engine. */
export type UploadOutcome = { status?: number; result: LabResult<unknown> };

/**
 * Streams `request` into a temporary file and hands its path to `open` (openBundle by path).
 * A body past `limit` bytes stops at once with 413; the file is removed on every path.
 */
export async function receiveBundle(
  request: IncomingMessage,
  open: (path: string) => Promise<LabResult<unknown>>,
  limit = maxBundleBytes,
): Promise<UploadOutcome> {
  const folder = mkdtempSync(join(tmpdir(), 'cuelab-upload-'));
  try {
    const file = join(folder, 'bundle.json.gz');
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > limit) done(new RangeError('too large'));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(request, counter, createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      if (error instanceof RangeError) {
        return {
          status: 413,
          result: failure('bad_request', `The bundle exceeds ${limit} bytes, the engine's limit.`),
        };
      }
      throw error;
    }
    if (size === 0) return { status: 400, result: failure('bad_request', 'The bundle is empty.') };
    return { result: await open(file) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
