/**
 * Size limits on files a stranger hands us (issue 10, item 8: a 647 KB gzip bomb took the
 * engine to 1.6 GB). A bundle or results file is read whole, gzipped or not, and inflation
 * stops at a fixed output size, so memory stays bounded by the limit, not by the input.
 */
import { readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { EngineError } from './errors';

/** Most bytes a bundle or results file may hold once decompressed (256 MiB). */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** Most rows a bundle (all tables together) or a results file may hold. */
export const MAX_INPUT_ROWS = 2_000_000;

/** True when `data` starts with the gzip magic bytes. */
export function isGzip(data: Buffer): boolean {
  return data[0] === 0x1f && data[1] === 0x8b;
}

/**
 * The text of `file`, gunzipped when it is gzip, refused with a clear error when it (or what it
 * inflates to) exceeds `maxBytes`. `what` names the file in errors.
 */
export function readLimitedText(file: string, what: string, maxBytes = MAX_INPUT_BYTES): string {
  let data: Buffer;
  try {
    if (statSync(file).size > maxBytes) throw tooLarge(what, maxBytes);
    data = readFileSync(file);
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError('not_found', `Cannot read ${what}: ${(error as Error).message}.`);
  }
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

function tooLarge(what: string, maxBytes: number): EngineError {
  return new EngineError(
    'bad_request',
    `${what} is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB once decompressed; ` +
      'refusing it (a damaged file or a decompression bomb). Nothing was stored.',
  );
}
