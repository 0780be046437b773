/**
 * Reading a file a stranger named, as one open: the check and the read are of the same file.
 *
 * A served engine checks that a path is inside the roots the user allowed (server/path-access.ts)
 * and hands the handler the resolved path; the handler then reads it here. Checking a path and
 * then opening it are two lookups, and a symlink swapped between them used to read a file
 * outside every root. So the file is opened first, without following a symlink in its last
 * part (O_NOFOLLOW), and the descriptor is what gets checked: inside a served request
 * (`runConfined`), the path's real location must still be inside the roots and be the very
 * file the descriptor holds (same device and inode), and the file must have one link: a hard
 * link inside an allowed folder would otherwise read its target wherever that lives
 * (docs/SECURITY.md). Outside a served request (the CLI, whose user may read what they like)
 * only the last-part symlink rule and the regular-file rule apply.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { EngineError } from './errors';

/** Where a served request may read: a test on a file's real path. */
export interface Confinement {
  /** True when `realPath` is inside a root the request may read. */
  allows(realPath: string): boolean;
  /**
   * The real paths of the folders it allows, as they are now: a worker thread the request's
   * work is handed to is confined to these (`confinedTo`).
   */
  roots(): string[];
}

const confinements = new AsyncLocalStorage<Confinement>();

/** Runs `work` (and everything it starts) with reads confined by `confinement`. */
export function runConfined<T>(confinement: Confinement, work: () => T): T {
  return confinements.run(confinement, work);
}

/** The folders the current work may read (undefined outside a served request: the CLI's). */
export function currentRoots(): string[] | undefined {
  return confinements.getStore()?.roots();
}

/** A confinement to these real folder paths (a worker thread's, from `currentRoots`). */
export function confinedTo(roots: readonly string[]): Confinement {
  return {
    allows: (realPath) => roots.some((root) => isInside(realPath, root)),
    roots: () => [...roots],
  };
}

function isInside(realPath: string, root: string): boolean {
  const rel = relative(root, realPath);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Opens `path` for reading without blocking (a FIFO is refused, not waited on). A symlink in
 * its last part is not followed inside a served request, nor where `noFollow` asks (a
 * stranger's folder); the CLI's user may name a link to their own file. `what` names it in
 * errors.
 */
export function openForReading(path: string, what: string, noFollow = false): number {
  const follow = noFollow || confinements.getStore() !== undefined ? constants.O_NOFOLLOW : 0;
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | follow);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new EngineError(
        'bad_request',
        `${what} is a symbolic link; name the file it points at.`,
      );
    throw new EngineError('not_found', `Cannot read ${what}: ${(error as Error).message}.`);
  }
}

/**
 * Inside a served request: refuses the open `descriptor` of `path` unless `path` still
 * resolves inside the roots to the file the descriptor holds, and that file has one link.
 * Returns the descriptor's stats.
 */
export function checkDescriptor(descriptor: number, path: string, what: string): Stats {
  const opened = fstatSync(descriptor);
  const confinement = confinements.getStore();
  if (!confinement) return opened;
  if (opened.isFile() && opened.nlink > 1)
    throw new EngineError(
      'bad_request',
      `${what} has ${String(opened.nlink)} hard links; a served engine reads only files with one (docs/SECURITY.md).`,
    );
  let real: string;
  let named: Stats;
  try {
    real = realpathSync(path);
    named = statSync(real);
  } catch (error) {
    throw new EngineError('not_found', `Cannot read ${what}: ${(error as Error).message}.`);
  }
  if (!confinement.allows(real))
    throw new EngineError('bad_request', `${what} is outside the folders this engine may read.`);
  if (named.dev !== opened.dev || named.ino !== opened.ino)
    throw new EngineError(
      'bad_request',
      `${what} changed while it was being opened (a link swapped?); nothing was read.`,
    );
  return opened;
}

/**
 * The bytes of `path`, read through one descriptor that `checkDescriptor` accepted and whose
 * stats `accept` did not refuse (it returns the error to throw, or undefined).
 */
export function readCheckedFile(
  path: string,
  what: string,
  accept: (stats: Stats) => EngineError | undefined,
  noFollow = false,
): Buffer {
  const descriptor = openForReading(path, what, noFollow);
  try {
    const stats = checkDescriptor(descriptor, path, what);
    const refusal = accept(stats);
    if (refusal) throw refusal;
    return readFileSync(descriptor);
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError('not_found', `Cannot read ${what}: ${(error as Error).message}.`);
  } finally {
    closeSync(descriptor);
  }
}
