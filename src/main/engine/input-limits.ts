/**
 * Size limits on files a stranger hands us (item 8: a 647 KB gzip bomb took the
 * engine to 1.6 GB). A bundle or results file is read whole, gzipped or not, and inflation
 * stops at a fixed output size, so memory stays bounded by the limit, not by the input.
 */
import type { Stats } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { readCheckedFile } from './confined-read';
import { EngineError } from './errors';

/** Most bytes a bundle or results file may hold once decompressed (256 MiB). */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** Most rows a bundle (all tables together) or a results file may hold. */
export const MAX_INPUT_ROWS = 2_000_000;

/** Most bytes a suite, labels or spec file named by path may hold (64 MiB, as the window's). */
export const MAX_NAMED_FILE_BYTES = 64 * 1024 * 1024;

/** What a path names when it is not a regular file, in a person's words. */
export function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return stats.isFile() ? 'a regular file' : 'not a regular file';
}

/**
 * The bytes of `path`, which must be a regular file of at most `maxBytes`. It is opened once,
 * without blocking and without following a symlink in its last part, and checked on the open
 * descriptor (confined-read.ts), so a FIFO or device is refused at once instead of hanging the
 * engine, and a file swapped after a check is never the file read. Errors name the file
 * (`what`) and never quote what it holds.
 */
export function readRegularFile(path: string, what: string, maxBytes: number): Buffer {
  return readCheckedFile(path, what, (stats) => {
    if (!stats.isFile())
      return new EngineError('bad_request', `${what} is ${fileKind(stats)}, not a regular file.`);
    if (stats.size > maxBytes) return tooLarge(what, maxBytes, '');
    return undefined;
  });
}

/**
 * A JSON.parse error's message without the piece of the text V8 quotes in it
 * (`Unexpected token 'r', "root:x:0:0:"... is not valid JSON`): an error about a stranger's
 * file, or a file a token holder named, must never carry what the file holds.
 */
export function jsonErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/,?\s*"(?:[^"\\]|\\.)*"(?:\.\.\.)?\s+is not valid JSON/, ': not valid JSON')
    .replace(/^Unexpected token '.+?'/, 'Unexpected token');
}

/** True when `data` starts with the gzip magic bytes. */
export function isGzip(data: Buffer): boolean {
  return data[0] === 0x1f && data[1] === 0x8b;
}

/**
 * The text of `file`, gunzipped when it is gzip, refused with a clear error when it (or what it
 * inflates to) exceeds `maxBytes`. `what` names the file in errors.
 */
export function readLimitedText(file: string, what: string, maxBytes = MAX_INPUT_BYTES): string {
  const data = readRegularFile(file, what, maxBytes);
  if (!isGzip(data)) return data.toString('utf8');
  let inflated: Buffer;
  try {
    // zlib stops and throws once the output would pass maxOutputLength: no bomb gets inflated.
    inflated = gunzipSync(data, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge(what, maxBytes);
    throw new EngineError('bad_request', `${what} is not valid gzip: ${(error as Error).message}.`);
  }
  return inflated.toString('utf8');
}

/** Throws when `rows` is more than the row limit. */
export function checkRowCount(rows: number, what: string, maxRows = MAX_INPUT_ROWS): void {
  if (rows > maxRows)
    throw new EngineError(
      'bad_request',
      `${what} holds ${rows} rows; CueLab opens at most ${maxRows}. Nothing was stored.`,
    );
}

/** Line breaks in `text`, counted without splitting it (a results file may be large). */
export function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

function tooLarge(what: string, maxBytes: number, when = ' once decompressed'): EngineError {
  return new EngineError(
    'bad_request',
    `${what} is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB${when}; ` +
      'refusing it (a damaged file or a decompression bomb). Nothing was stored.',
  );
}
