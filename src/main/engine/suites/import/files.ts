/**
 * Reading a stranger's folder safely: no symlinks followed, nothing outside the root, sizes
 * capped, and every parse error naming the file and line.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { z } from 'zod';
import { readCheckedFile } from '../../confined-read';
import { EngineError } from '../../errors';
import { jsonErrorMessage } from '../../input-limits';
import { jsonErrorOffset } from './json-position';
import { ImportProblem, type SourceFile, type StateFolder, type TaskFolder } from './types';

/** Most files one import walks; a larger folder is refused rather than half-read. */
export const maxFiles = 50_000;
/** Largest single file read (an Inspect log of many samples can be large). */
export const maxFileBytes = 256 * 1024 * 1024;
const skippedFolders = new Set(['.git', 'node_modules', '__pycache__']);

/** Every regular file under `root`, relative, sorted; symlinks are not followed. */
export function walkFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (folder: string, depth: number) => {
    if (depth > 16) return;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name)) visit(full, depth + 1);
      } else if (entry.isFile()) {
        out.push(relative(root, full).split(sep).join('/'));
        if (out.length > maxFiles) {
          throw new ImportProblem(root, `more than ${maxFiles} files; point at a smaller folder`);
        }
      }
    }
  };
  visit(root, 0);
  return out.sort();
}

/** Reads `path` (relative to `root`) with its sha256; refuses anything outside the root. */
export function readSource(root: string, path: string): SourceFile {
  const { bytes, sha256: digest } = readSourceBytes(root, path);
  return { path, text: bytes.toString('utf8'), sha256: digest };
}

/** Reads `path` as bytes, with the same confinement and size cap as `readSource`. */
export function readSourceBytes(root: string, path: string): { bytes: Buffer; sha256: string } {
  const full = insideRoot(root, path);
  let bytes: Buffer;
  try {
    bytes = readLinkFreeFile(full, path);
  } catch (error) {
    throw new ImportProblem(path, `cannot be read: ${(error as Error).message}`);
  }
  return { bytes, sha256: sha256(bytes) };
}

/** Hex sha256 of bytes or text. */
export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The bytes of `full`, a regular file of at most maxFileBytes, read through one descriptor
 * opened without following a symlink (confined-read.ts): a link swapped in after a check is
 * refused, never followed.
 */
function readLinkFreeFile(full: string, path: string): Buffer {
  return readCheckedFile(
    full,
    path,
    (stats) =>
      !stats.isFile()
        ? new EngineError('bad_request', 'not a regular file')
        : stats.size > maxFileBytes
          ? new EngineError('bad_request', `larger than ${maxFileBytes} bytes`)
          : undefined,
    true,
  );
}

function insideRoot(root: string, path: string): string {
  const full = resolve(root, path);
  const base = resolve(root);
  if (full !== base && !full.startsWith(base + sep)) {
    throw new ImportProblem(path, 'is outside the folder being imported');
  }
  return full;
}

/** Parses JSON, naming the file and line of a syntax error. */
export function parseJson(file: SourceFile): unknown {
  try {
    return JSON.parse(file.text) as unknown;
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : jsonErrorOffset(file.text);
    const line = offset === undefined ? undefined : file.text.slice(0, offset).split('\n').length;
    throw new ImportProblem(
      line ? `${file.path}:${line}` : file.path,
      `not valid JSON (${jsonErrorMessage(error)})`,
    );
  }
}

/** Parses `value` with `schema`; the first problems become one `path: field: problem` error. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  path: string,
): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(file)'}: ${issue.message}`);
  throw new ImportProblem(path, problems.join('; '));
}

/** A task folder on disk: reads are confined to it and skip what only graders see. */
export function taskFolder(folder: string, label: string): TaskFolder {
  const readBytes = (path: string): Buffer | undefined => {
    if (isGraderPath(path)) return undefined;
    try {
      const full = insideRoot(folder, path);
      // A symlink in a stranger's task folder (the file or a folder above it) could point
      // anywhere on this machine: only a real file inside the real folder is read.
      const stats = lstatSync(full);
      const real = realpathSync(full);
      const base = realpathSync(folder);
      if (!real.startsWith(base + sep)) return undefined;
      if (!stats.isFile() || stats.size > maxFileBytes) return undefined;
      return readLinkFreeFile(full, path);
    } catch {
      return undefined;
    }
  };
  let listing: string[] | undefined;
  return {
    label,
    read: (path) => readBytes(path)?.toString('utf8'),
    files: () => (listing ??= walkFiles(folder).filter((path) => !isGraderPath(path))),
    readBytes,
  };
}

/**
 * What only graders see: tests, run-tests.sh, solutions, verifiers, reports. No
 * importer reads these into an item; the hidden-files test checks none reaches a prompt.
 */
export function isGraderPath(path: string): boolean {
  const parts = path.toLowerCase().split('/');
  const name = parts[parts.length - 1] ?? '';
  return (
    parts.some((part) => ['tests', 'test', 'solution', 'solutions', 'verifier'].includes(part)) ||
    /^(run-tests\.sh|solution\.sh|solution\.py|verify\.py|report\.json|post-test\.txt)$/.test(
      name,
    ) ||
    /^tests?\.(log|cast)$/.test(name)
  );
}

/** A state folder on disk (see ImportContext.state): listing and reads stay inside it. */
export function stateFolderAt(folder: string, label: string): StateFolder {
  let listing: string[] | undefined;
  return {
    label,
    files: () => (listing ??= walkFiles(folder)),
    readBytes(path) {
      try {
        const full = insideRoot(folder, path);
        const stats = lstatSync(full);
        if (!stats.isFile() || stats.size > maxFileBytes) return undefined;
        return readLinkFreeFile(full, path);
      } catch {
        return undefined;
      }
    },
  };
}
