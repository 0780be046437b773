import { MAX_NAMED_FILE_BYTES, readRegularFile } from '../input-limits';

/**
 * The text of a file a request names; not_found names it as the user knows it (`name`: their
 * own path, not the staged upload the engine reads). Only a regular file of at most 64 MiB is
 * read: a FIFO, device or folder is refused at once (input-limits.ts).
 */
export function readNamedFile(path: string, name: string): string {
  return readRegularFile(path, name, MAX_NAMED_FILE_BYTES).toString('utf8');
}
