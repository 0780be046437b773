/**
 * Dropped runs on the Import screen: the browser hands over files, never a path, so they are
 * gathered with their relative paths (DataTransfer entries, or a webkitdirectory input) and
 * uploaded to the engine in pieces under its request cap (`uploadImportFiles`).
 */
import { uploadLimits } from '../../../shared/lab-api/import';
import type { LabApi } from '../../../shared/lab-api';

/** One dropped file and where it sits inside the drop. */
export interface DroppedFile {
  path: string;
  file: File;
}

/** What was dropped: a name for its folder and its files. */
export interface Drop {
  name: string;
  files: DroppedFile[];
}

/** Folders a run's import never reads (as the engine's walk skips them): not uploaded. */
const skippedFolders = new Set(['.git', 'node_modules', '__pycache__']);

/** The files of a drop event: folders walked through their entries. */
export async function filesFromDataTransfer(transfer: DataTransfer): Promise<Drop> {
  const entries = [...transfer.items]
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry() : null))
    .filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.length === 0) return fromFileList([...transfer.files]);
  const files: DroppedFile[] = [];
  for (const entry of entries) await walkEntry(entry, '', files);
  const single = entries.length === 1 ? entries[0] : undefined;
  return single?.isDirectory ? stripTop(single.name, files) : { name: 'dropped', files };
}

/** The files an `<input type="file">` chose (with `webkitdirectory`, a folder's). */
export function fromFileList(list: readonly File[]): Drop {
  const files = list.map((file) => ({ path: file.webkitRelativePath || file.name, file }));
  const tops = new Set(files.map((entry) => entry.path.split('/')[0]));
  const [top] = [...tops];
  if (tops.size === 1 && top && files.every((entry) => entry.path.includes('/'))) {
    return stripTop(top, files);
  }
  return { name: 'dropped', files: files.filter((entry) => !skipped(entry.path)) };
}

function stripTop(name: string, files: DroppedFile[]): Drop {
  const prefix = `${name}/`;
  return {
    name,
    files: files
      .map((entry) => ({
        ...entry,
        path: entry.path.startsWith(prefix) ? entry.path.slice(prefix.length) : entry.path,
      }))
      .filter((entry) => !skipped(entry.path)),
  };
}

function skipped(path: string): boolean {
  return path.split('/').some((part) => skippedFolders.has(part));
}

async function walkEntry(entry: FileSystemEntry, parent: string, out: DroppedFile[]) {
  const path = parent ? `${parent}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ path, file });
    return;
  }
  if (!entry.isDirectory || skippedFolders.has(entry.name)) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (about 100 in Chromium) until it answers none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return;
    for (const child of batch) await walkEntry(child, path, out);
  }
}

/** A drop over the caps, said in the words the user needs; undefined when it fits. */
export function dropProblem(drop: Drop): string | undefined {
  const bytes = drop.files.reduce((sum, entry) => sum + entry.file.size, 0);
  if (drop.files.length === 0) return 'Nothing to upload: the drop holds no files.';
  if (drop.files.length > uploadLimits.maxFiles) {
    return `The drop holds ${drop.files.length} files; at most ${uploadLimits.maxFiles} can be uploaded. Type its path instead.`;
  }
  if (bytes > uploadLimits.maxBytes) {
    return `The drop weighs ${megabytes(bytes)}; at most ${megabytes(uploadLimits.maxBytes)} can be uploaded. Type its path instead.`;
  }
  return undefined;
}

/** Bytes as "12.3 MB". */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Progress of an upload, after each request. */
export interface UploadProgress {
  files: number;
  bytes: number;
  totalFiles: number;
  totalBytes: number;
}

/** How an upload ended: its staged folder, cancelled, or the engine's refusal. */
export type UploadOutcome =
  | { ok: true; path: string }
  | { ok: false; cancelled: true }
  | { ok: false; cancelled: false; error: string };

/**
 * Uploads `drop` in pieces; resolves to the staged folder the engine will import. Once
 * `signal` aborts no further piece is sent (the request under way is cancelled on the engine
 * by its work id, which discards the staged folder), and the upload ends as cancelled.
 */
export async function uploadDrop(
  client: LabApi,
  drop: Drop,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<UploadOutcome> {
  const totalBytes = drop.files.reduce((sum, entry) => sum + entry.file.size, 0);
  const progress = { files: 0, bytes: 0, totalFiles: drop.files.length, totalBytes };
  let uploadId: string | undefined;
  let path = '';
  let pieces: { path: string; data: string; append: boolean }[] = [];
  let pending = 0;
  const cancelled = { ok: false, cancelled: true } as const;
  const send = async (): Promise<UploadOutcome | undefined> => {
    if (signal?.aborted) return cancelled;
    const result = await client.uploadImportFiles({
      ...(uploadId ? { uploadId } : {}),
      name: drop.name,
      pieces,
    });
    if (!result.ok) {
      return result.error.code === 'cancelled' || signal?.aborted
        ? cancelled
        : { ok: false, cancelled: false, error: result.error.message };
    }
    uploadId = result.value.uploadId;
    path = result.value.path;
    progress.bytes += pending;
    pieces = [];
    pending = 0;
    onProgress({ ...progress });
    return undefined;
  };
  for (const entry of drop.files) {
    if (signal?.aborted) return cancelled;
    const size = entry.file.size;
    for (let at = 0; at < size || at === 0; at += uploadLimits.requestBytes) {
      const slice = entry.file.slice(at, Math.min(size, at + uploadLimits.requestBytes));
      const data = base64(new Uint8Array(await slice.arrayBuffer()));
      pieces.push({ path: entry.path, data, append: at > 0 });
      pending += slice.size;
      if (pending >= uploadLimits.requestBytes || pieces.length >= 500) {
        const ended = await send();
        if (ended) return ended;
      }
      if (size === 0) break;
    }
    progress.files += 1;
  }
  if (pieces.length > 0 || !uploadId) {
    const ended = await send();
    if (ended) return ended;
  }
  return signal?.aborted ? cancelled : { ok: true, path };
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(text);
}
