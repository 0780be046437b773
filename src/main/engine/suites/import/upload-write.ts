/**
 * The bytes of a dropped folder written into its staged folder (upload.ts keeps the uploads):
 * this runs on the files worker, so decoding and writing a request's pieces never holds up the
 * engine's thread. Every path is a stranger's and stays inside the folder; bytes and files are
 * capped across the whole upload.
 */
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { uploadLimits } from '../../../../shared/lab-api/import';
import { EngineError } from '../../errors';

const { maxBytes: maxUploadBytes, maxFiles: maxUploadFiles } = uploadLimits;

/** One piece of one file: the first piece creates it, later ones (`append`) extend it. */
export interface UploadPiece {
  path: string;
  /** Base64 bytes. */
  data: string;
  append: boolean;
}

/** Where an upload's folder stands: its bytes and the files started in it. */
export interface UploadWrite {
  readonly folder: string;
  readonly bytes: number;
  readonly files: readonly string[];
}

/**
 * Writes `pieces` into `upload`'s folder in order, telling `onPiece` how many are done. A piece
 * that is refused stops the writing: what came before it stays, and the refusal (naming the
 * piece) is answered beside the upload's new state.
 */
export function writeUploadPieces(
  upload: UploadWrite,
  pieces: readonly UploadPiece[],
  onPiece: (done: number) => void,
): UploadWrite & { refused?: { message: string } } {
  const files = new Set(upload.files);
  let bytes = upload.bytes;
  const state = () => ({ folder: upload.folder, bytes, files: [...files] });
  for (const [index, piece] of pieces.entries()) {
    try {
      bytes += writePiece(upload.folder, files, bytes, piece);
    } catch (error) {
      if (error instanceof EngineError) return { ...state(), refused: { message: error.message } };
      throw error;
    }
    onPiece(index + 1);
  }
  return state();
}

/** Writes one piece (throwing a bad_request naming it when refused); answers its bytes. */
function writePiece(folder: string, files: Set<string>, bytes: number, piece: UploadPiece): number {
  const relative = safeRelative(piece.path);
  const data = Buffer.from(piece.data, 'base64');
  if (bytes + data.length > maxUploadBytes) {
    throw new EngineError(
      'bad_request',
      `${piece.path}: the upload would pass ${maxUploadBytes} bytes; drop a smaller folder.`,
    );
  }
  const target = join(folder, ...relative.split('/'));
  if (piece.append) {
    if (!files.has(relative)) {
      throw new EngineError('bad_request', `${piece.path}: appends to a file not started.`);
    }
    appendFileSync(target, data);
  } else {
    if (files.has(relative)) {
      throw new EngineError('bad_request', `${piece.path}: sent twice.`);
    }
    if (files.size >= maxUploadFiles) {
      throw new EngineError('bad_request', `more than ${maxUploadFiles} files in one upload.`);
    }
    mkdirSync(dirname(target), { recursive: true });
    if (isFolder(target)) throw new EngineError('bad_request', `${piece.path}: is a folder.`);
    // "wx": never through anything already there (a folder of the same name, say).
    writeFileSync(target, data, { flag: 'wx' });
    files.add(relative);
  }
  return data.length;
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
