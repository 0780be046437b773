/**
 * Runs dropped on the Import screen: a browser gives no path, so the window uploads
 * the dropped folder or files in pieces and the engine stages them in a temp folder, which is
 * then imported like any path. Every path is a stranger's: it stays inside its upload's folder;
 * files, bytes and open uploads are capped; old uploads are removed. The uploads are kept here,
 * on the engine's thread (the server asks `isStagedUpload`); their bytes are written on the
 * files worker (upload-write.ts).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { isAbsolute, join, relative } from 'node:path';
import { EngineError } from '../../errors';
import type { UploadPiece, UploadWrite } from './upload-write';

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
  /** The request being staged, which the next one waits for. */
  queue: Promise<void>;
}

const uploads = new Map<string, Upload>();
let cleanupHooked = false;

/** Where an upload stands after a request. */
export interface UploadState {
  uploadId: string;
  /** The staged folder to import. */
  path: string;
  files: number;
  bytes: number;
}

/**
 * Writes the pieces of one request where they go, on the files worker (`write`: the handler's
 * way there, upload-write.ts `writeUploadPieces`), one request of an upload at a time.
 */
export type UploadWriter = (
  upload: UploadWrite,
  pieces: readonly UploadPiece[],
) => Promise<UploadWrite & { readonly refused?: { readonly message: string } }>;

/**
 * Stores `pieces` into upload `uploadId` (a new upload when absent, its folder named `name`).
 * Throws a bad_request naming the piece that is refused; what was stored before stays. Work
 * that fails otherwise (cancelled, the worker lost) removes the upload: what it holds is unknown.
 */
export async function stageUpload(
  uploadId: string | undefined,
  name: string,
  pieces: readonly UploadPiece[],
  write: UploadWriter,
): Promise<UploadState> {
  const id = uploadId ?? startUpload(name);
  const upload = uploads.get(id);
  if (!upload) {
    throw new EngineError('not_found', `Upload ${id} is gone (uploads last an hour); drop again.`);
  }
  // A second request for the same upload waits for the first: each starts from where it ended.
  const staged = upload.queue.then(async () => {
    let written: Awaited<ReturnType<UploadWriter>>;
    try {
      written = await write(
        { folder: upload.folder, bytes: upload.bytes, files: [...upload.files] },
        pieces,
      );
    } catch (error) {
      removeUpload(id);
      throw error;
    }
    upload.bytes = written.bytes;
    upload.files = new Set(written.files);
    if (written.refused) throw new EngineError('bad_request', written.refused.message);
    return { uploadId: id, path: upload.folder, files: upload.files.size, bytes: upload.bytes };
  });
  upload.queue = staged.then(
    () => undefined,
    () => undefined,
  );
  return staged;
}

function removeUpload(id: string): void {
  const upload = uploads.get(id);
  if (!upload) return;
  rmSync(upload.root, { recursive: true, force: true });
  uploads.delete(id);
}

/**
 * True when `realPath` (already resolved through symlinks) is inside an upload staged on this
 * engine and not yet removed: the one place a client from another machine may point the
 * served engine at (server/path-access.ts).
 */
/** The real paths of the uploads staged now (a worker thread is confined to these too). */
export function stagedUploadRoots(): string[] {
  const roots: string[] = [];
  for (const upload of uploads.values()) {
    try {
      roots.push(realpathSync(upload.root));
    } catch {
      // Removed meanwhile: nothing to read there.
    }
  }
  return roots;
}

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
  uploads.set(id, {
    root,
    folder,
    bytes: 0,
    files: new Set(),
    started: Date.now(),
    queue: Promise.resolve(),
  });
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
