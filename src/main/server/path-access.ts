/**
 * Which files a token holder may make the served engine read (docs/SECURITY.md). The command
 * line in process reads any path its user names (that user is the local user); over HTTP a
 * path must be inside a root the user allowed: the workspace, an upload staged on this engine,
 * the example runs CueLab ships, a folder the user added in Settings (engine/import-folders.ts),
 * or a folder given with `cuelab serve --allow-path DIR`. A request that did not come from this
 * machine's loopback (a non-loopback bind, a proxy that forwards remote peers) may name staged
 * uploads only. The path is resolved through every symlink before it is compared, and it must
 * be a regular file (or a folder where the method takes one): never a FIFO, device or socket,
 * and never a file with more than one hard link (a link inside an allowed folder to a file
 * outside it). The handler is then given the resolved path, and every read it makes runs
 * confined (engine/confined-read.ts): opened once, without following a last-part symlink, and
 * checked on the descriptor against these same roots, so a link swapped after this check is
 * refused instead of read. Refusals name the path and the rule, never anything the file holds.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { failure, type LabResult } from '../../shared/result';
import { fileKind } from '../engine/input-limits';
import type { Confinement } from '../engine/confined-read';
import { isStagedUpload, stagedUploadRoots } from '../engine/suites';

/** What a path field must name. */
type PathKind = 'file' | 'folder' | 'file or folder';

/** Every LabApi request field that names a path on the engine's machine, and what it names. */
export const pathFields: Readonly<Record<string, readonly { field: string; kind: PathKind }[]>> = {
  importSuiteFile: [{ field: 'path', kind: 'file' }],
  importResults: [{ field: 'path', kind: 'file' }],
  importLabels: [{ field: 'path', kind: 'file' }],
  openBundle: [{ field: 'path', kind: 'file' }],
  importRuns: [
    { field: 'path', kind: 'file or folder' },
    { field: 'tasksDir', kind: 'folder' },
  ],
  previewItemPrompt: [{ field: 'suitePath', kind: 'file' }],
};

/** The roots a served engine reads from, as given; resolved when checked. */
export interface PathAccess {
  /** The workspace, the example runs, the folders added in Settings, every `--allow-path` one. */
  roots: readonly string[];
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** True when the peer is this machine's loopback (IPv4, IPv6, or IPv4-mapped IPv6). */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

/**
 * Why the request may not name its paths, or null when every path it names is allowed.
 * `loopback` is false for a peer that is not this machine: then only staged uploads pass.
 */
export function pathRefusal(
  method: string,
  body: unknown,
  access: PathAccess,
  loopback: boolean,
): LabResult<never> | null {
  const fields = pathFields[method];
  if (!fields || typeof body !== 'object' || body === null) return null;
  for (const { field, kind } of fields) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value !== 'string') continue;
    const problem = pathProblem(value, kind, access, loopback);
    if (problem) return failure('bad_request', field === 'path' ? problem : `${field}: ${problem}`);
  }
  return null;
}

function pathProblem(
  path: string,
  kind: PathKind,
  access: PathAccess,
  loopback: boolean,
): string | null {
  if (!isAbsolute(path)) return `${path} is not an absolute path on the engine's machine.`;
  const real = realOrNull(resolve(path));
  if (real === null) return `${path} does not exist on the engine's machine.`;
  const upload = isStagedUpload(real);
  if (!loopback && !upload)
    return (
      `${path}: this engine is reached from another machine, so it reads uploads only ` +
      '(send the file with uploadImportFiles or as the openBundle body).'
    );
  const roots = access.roots.map(realOrNull).filter((root): root is string => root !== null);
  if (!upload && !roots.some((root) => inside(real, root)))
    return (
      `${path} is outside the folders this engine may read: the workspace, its uploads, ` +
      'the example runs CueLab ships, folders added in Settings (Import folders), ' +
      'and folders given with cuelab serve --allow-path DIR.'
    );
  const stats = statSync(real);
  const isFolder = stats.isDirectory();
  if (stats.isFile() ? kind === 'folder' : !(isFolder && kind !== 'file'))
    return `${path} is ${fileKind(stats)}; it must be ${article(kind)}.`;
  if (stats.isFile() && stats.nlink > 1)
    return `${path} has ${String(stats.nlink)} hard links; a served engine reads only files with one (a hard link can reach a file outside the allowed folders).`;
  return null;
}

/**
 * `body` with every path field replaced by its resolved real path, so the handler opens the
 * path that was checked, not the name that led there (a name whose symlink may since point
 * elsewhere). Paths that do not resolve are left as they are (the check refused them).
 */
export function resolvedPathBody(method: string, body: unknown): unknown {
  const fields = pathFields[method];
  if (!fields || typeof body !== 'object' || body === null) return body;
  const resolved: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const { field } of fields) {
    const value = resolved[field];
    if (typeof value !== 'string' || !isAbsolute(value)) continue;
    const real = realOrNull(resolve(value));
    if (real !== null) resolved[field] = real;
  }
  return resolved;
}

/** Where a request from this peer may read: a test on a real path, for confined reads. */
export function readableRoots(access: PathAccess, loopback: boolean): Confinement {
  return {
    allows(realPath) {
      if (isStagedUpload(realPath)) return true;
      if (!loopback) return false;
      return access.roots.map(realOrNull).some((root) => root !== null && inside(realPath, root));
    },
    roots: () => [
      ...stagedUploadRoots(),
      ...(loopback
        ? access.roots.map(realOrNull).filter((root): root is string => root !== null)
        : []),
    ],
  };
}

function article(kind: PathKind): string {
  return kind === 'file' ? 'a regular file' : kind === 'folder' ? 'a folder' : 'a file or a folder';
}
