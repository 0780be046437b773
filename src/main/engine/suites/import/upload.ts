/**
 * Runs dropped on the Import screen: a browser gives no path, so the window uploads
 * the dropped folder or files in pieces and the engine stages them in a temp folder, which is
 * then imported like any path. Every path is a stranger's: it stays inside its upload's folder;
 * files, bytes and open uploads are capped; old uploads are removed.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { uploadLimits } from '../../../../shared/lab-api/import';
import { EngineError } from '../../errors';

const { maxBytes: maxUploadBytes, maxFiles: maxUploadFiles } = uploadLimits;
/** Uploads kept at once; the oldest goes when another starts. */
const maxOpenUploads = 4;
/** An upload older than this is removed when another starts. */
const uploadLifetimeMs = 60 * 60 * 1000;

interface Upload {
  root: string;
  folder: string;
  bytes: number;
  files: Set<string>;
  started: number;
}

const uploads = new Map<string, Upload>();
let cleanupHooked = false;

/** One piece of one file: the first piece creates it, later ones (`append`) extend it. */
export interface UploadPiece {
  path: string;
  /** Base64 bytes. */
  data: string;
  append: boolean;
}

/** Where an upload stands after a request. */
export interface UploadState {
  uploadId: string;
  /** The staged folder to import. */
  path: string;
  files: number;
  bytes: number;
}

/**
 * Stores `pieces` into upload `uploadId` (a new upload when absent, its folder named `name`).
 * Throws a bad_request naming the piece that is refused; what was stored before stays.
 */
export function stageUpload(
  uploadId: string | undefined,
  name: string,
  pieces: readonly UploadPiece[],
): UploadState {
  const id = uploadId ?? startUpload(name);
  const upload = uploads.get(id);
  if (!upload) {
    throw new EngineError('not_found', `Upload ${id} is gone (uploads last an hour); drop again.`);
  }
  for (const piece of pieces) {
    const relative = safeRelative(piece.path);
    const bytes = Buffer.from(piece.data, 'base64');
    if (upload.bytes + bytes.length > maxUploadBytes) {
      throw new EngineError(
        'bad_request',
        `${piece.path}: the upload would pass ${maxUploadBytes} bytes; drop a smaller folder.`,
      );
    }
    const target = join(upload.folder, ...relative.split('/'));
    if (piece.append) {
      if (!upload.files.has(relative)) {
        throw new EngineError('bad_request', `${piece.path}: appends to a file not started.`);
      }
      appendFileSync(target, bytes);
    } else {
      if (upload.files.has(relative)) {
        throw new EngineError('bad_request', `${piece.path}: sent twice.`);
      }
      if (upload.files.size >= maxUploadFiles) {
        throw new EngineError('bad_request', `more than ${maxUploadFiles} files in one upload.`);
      }
      mkdirSync(dirname(target), { recursive: true });
      if (isFolder(target)) throw new EngineError('bad_request', `${piece.path}: is a folder.`);
      // "wx": never through anything already there (a folder of the same name, say).
      writeFileSync(target, bytes, { flag: 'wx' });
      upload.files.add(relative);
    }
    upload.bytes += bytes.length;
  }
  return { uploadId: id, path: upload.folder, files: upload.files.size, bytes: upload.bytes };
}

/**
 * True when `realPath` (already resolved through symlinks) is inside an upload staged on this
 * engine and not yet removed: the one place a client from another machine may point the
 * served engine at (server/path-access.ts).
 */
export function isStagedUpload(realPath: string): boolean {
  for (const upload of uploads.values()) {
    let root: string;
    try {
      root = realpathSync(upload.root);
    } catch {
      continue;
    }
    const rel = relative(root, realPath);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return true;
  }
  return false;
}

function startUpload(name: string): string {
  prune();
  const root = mkdtempSync(join(tmpdir(), 'cuelab-import-'));
  const folderName = safeName(name);
  const folder = join(root, folderName);
  mkdirSync(folder);
  const id = randomUUID();
  uploads.set(id, { root, folder, bytes: 0, files: new Set(), started: Date.now() });
  if (!cleanupHooked) {
    cleanupHooked = true;
    process.once('exit', () => {
      for (const upload of uploads.values()) rmSync(upload.root, { recursive: true, force: true });
    });
  }
  return id;
}

/** Removes uploads past their lifetime, and the oldest beyond the open limit. */
function prune(): void {
  const now = Date.now();
  const byAge = [...uploads].sort(([, a], [, b]) => a.started - b.started);
  byAge.forEach(([id, upload], index) => {
    const over = byAge.length - index >= maxOpenUploads;
    if (over || now - upload.started > uploadLifetimeMs) {
      rmSync(upload.root, { recursive: true, force: true });
      uploads.delete(id);
    }
  });
}

/** A dropped folder's name as one safe path segment. */
function safeName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._ -]+/g, '-').replace(/^[.\s-]+/, '');
  return cleaned.slice(0, 100) || 'upload';
}

/** `path` as relative "/"-separated segments, none empty, "." or ".."; else a bad_request. */
function safeRelative(path: string): string {
  const parts = path.split('/');
  const bad =
    path.length === 0 ||
    path.length > 1024 ||
    parts.length > 16 ||
    parts.some(
      (part) =>
        part === '' ||
        part === '.' ||
        part === '..' ||
        part.includes('\\') ||
        part.includes('\u0000'),
    );
  if (bad) throw new EngineError('bad_request', `${path}: not a relative path inside the drop.`);
  return path;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
