/**
 * Files a command reads or writes live on the CLI's machine. A file to read reaches the engine
 * as a path: this machine's own path in-process, or, for a running engine elsewhere, the path of
 * an upload staged there (`uploadImportFiles`, in pieces under its request limit). What a
 * command writes comes back from the engine as bytes and is written here, whole or not at all,
 * so an engine never writes to a path the user did not give this CLI.
 */
import { closeSync, openSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { uploadLimits } from '../../shared/lab-api-import';
import { CommandError, UsageError } from './command';
import { unwrap, type LabSession } from './connection';

/** The path the engine of `session` reads `file` by (staging it there when remote). */
export async function fileForEngine(session: LabSession, file: string): Promise<string> {
  const local = resolve(file);
  let size: number;
  try {
    const stats = statSync(local);
    if (!stats.isFile()) throw new UsageError(`${file} is not a file`);
    size = stats.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new CommandError(`Cannot read ${file}: ${(error as Error).message}.`);
  }
  if (session.engine) return local;
  if (size > uploadLimits.maxBytes)
    throw new CommandError(
      `${file} is larger than the ${uploadLimits.maxBytes} bytes one upload holds.`,
    );
  const name = basename(local);
  const descriptor = openSync(local, 'r');
  try {
    let uploadId: string | undefined;
    let folder = '';
    let offset = 0;
    // At least one piece, so an empty file arrives empty rather than missing.
    do {
      const buffer = Buffer.alloc(Math.min(uploadLimits.requestBytes, size - offset));
      const read = readSync(descriptor, buffer, 0, buffer.length, offset);
      const staged = unwrap(
        await session.api.uploadImportFiles({
          ...(uploadId ? { uploadId } : {}),
          name: 'cli-upload',
          pieces: [
            { path: name, data: buffer.subarray(0, read).toString('base64'), append: offset > 0 },
          ],
        }),
      );
      uploadId = staged.uploadId;
      folder = staged.path;
      offset += read;
      if (read === 0) break;
    } while (offset < size);
    // The engine's folder, joined the way its machine joins paths.
    return `${folder}${folder.includes('\\') && !folder.includes('/') ? '\\' : '/'}${name}`;
  } finally {
    closeSync(descriptor);
  }
}

/** Writes `data` to `file` on this machine, whole or not at all. */
export function writeOutput(file: string, data: string | Uint8Array): void {
  const partial = `${file}.partial`;
  try {
    writeFileSync(partial, data);
    renameSync(partial, file);
  } catch (error) {
    throw new CommandError(`Cannot write ${file}: ${(error as Error).message}.`);
  }
}
