/**
 * Files a command reads or writes live on the CLI's machine. A file to read reaches the engine
 * as a path: this machine's own path in-process, or, for a running engine elsewhere, the path of
 * an upload staged there (`uploadImportFiles`, in pieces under its request limit). What a
 * command writes comes back from the engine as bytes and is written here, whole or not at all,
 * so an engine never writes to a path the user did not give this CLI.
 */
import {
  closeSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { uploadLimits } from '../../shared/lab-api/import';
import { CommandError, UsageError } from './command';
import { unwrap, type LabSession } from './connection';

/** The path the engine of `session` reads `file` by (staging it there when remote). */
export async function fileForEngine(session: LabSession, file: string): Promise<string> {
  const local = resolve(file);
  let stats;
  try {
    stats = statSync(local);
  } catch (error) {
    throw new CommandError(`Cannot read ${file}: ${(error as Error).message}.`);
  }
  if (!stats.isFile()) throw new UsageError(`${file} is not a file`);
  return pathForEngine(session, file);
}

/**
 * The path the engine of `session` reads `path` (a file or a folder) by: this machine's own
 * in-process; for a running engine, the same name inside an upload staged there.
 */
export async function pathForEngine(session: LabSession, path: string): Promise<string> {
  const local = resolve(path);
  let files: { relative: string; size: number }[];
  try {
    files = statSync(local).isDirectory()
      ? filesUnder(local)
      : [{ relative: basename(local), size: statSync(local).size }];
  } catch (error) {
    throw new CommandError(`Cannot read ${path}: ${(error as Error).message}.`);
  }
  if (session.engine) return local;
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > uploadLimits.maxBytes || files.length > uploadLimits.maxFiles)
    throw new CommandError(
      `${path} is larger than one upload holds (${uploadLimits.maxFiles} files, ${uploadLimits.maxBytes} bytes).`,
    );
  const folder = statSync(local).isDirectory();
  const source = (relative: string) => (folder ? join(local, ...relative.split('/')) : local);
  let uploadId: string | undefined;
  let staged = '';
  for (const file of files) {
    const descriptor = openSync(source(file.relative), 'r');
    try {
      let offset = 0;
      // At least one piece, so an empty file arrives empty rather than missing.
      do {
        const buffer = Buffer.alloc(Math.min(uploadLimits.requestBytes, file.size - offset));
        const read = readSync(descriptor, buffer, 0, buffer.length, offset);
        const state = unwrap(
          await session.api.uploadImportFiles({
            ...(uploadId ? { uploadId } : {}),
            name: basename(local),
            pieces: [
              {
                path: file.relative,
                data: buffer.subarray(0, read).toString('base64'),
                append: offset > 0,
              },
            ],
          }),
        );
        uploadId = state.uploadId;
        staged = state.path;
        offset += read;
        if (read === 0) break;
      } while (offset < file.size);
    } finally {
      closeSync(descriptor);
    }
  }
  if (folder) return staged;
  // The engine's folder, joined the way its machine joins paths.
  const separator = staged.includes('\\') && !staged.includes('/') ? '\\' : '/';
  return `${staged}${separator}${basename(local)}`;
}

/** Every file under `root`, as `/`-separated paths relative to it. */
function filesUnder(root: string): { relative: string; size: number }[] {
  const found: { relative: string; size: number }[] = [];
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full, relative);
      else if (entry.isFile()) found.push({ relative, size: statSync(full).size });
    }
  };
  walk(root, '');
  return found;
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
