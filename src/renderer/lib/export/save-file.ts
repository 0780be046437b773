/**
 * Saves an export: the native save dialog inside Electron (`window.cuelab.saveFile`), a
 * download through `<a download>` in a browser.
 */
import type { FileFilter } from '../../../shared/native-bridge';

/** What to save and how the dialog describes it. */
export interface SaveRequest {
  /** Dialog title, e.g. "Export figure as PNG". */
  title: string;
  /** Suggested file name. */
  defaultName: string;
  /** MIME type of the download in a browser. */
  mimeType: string;
  filter: FileFilter;
  data: string | Uint8Array;
}

/**
 * Where the file went: a path (Electron), a browser download, the print dialog (a PDF is
 * saved from there), or null when cancelled.
 */
export type SaveOutcome =
  { saved: 'path'; path: string } | { saved: 'download' } | { saved: 'print' } | null;

/** Saves through the shell when present, else as a browser download. */
export async function saveExport(request: SaveRequest): Promise<SaveOutcome> {
  const bridge = window.cuelab;
  if (bridge) {
    const path = await bridge.saveFile({
      title: request.title,
      defaultName: request.defaultName,
      filters: [request.filter],
      data: request.data,
    });
    return path === null ? null : { saved: 'path', path };
  }
  const part: BlobPart =
    typeof request.data === 'string' ? request.data : new Uint8Array(request.data);
  const url = URL.createObjectURL(new Blob([part], { type: request.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = request.defaultName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL; free it once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { saved: 'download' };
}
