/**
 * Export bundle / Open bundle… beside Replay's study selector. A bundle is the gzipped study
 * (specs, reps, labels; keys redacted) that replays offline on another machine. Export saves
 * through the shell's save dialog in Electron, a download in a browser; opening reads a file
 * input in both (the native open dialog returns text only, a bundle is bytes) and streams the
 * file as the body of the upload route, so a bundle of any size opens (up to the engine's cap),
 * not only what fits base64 in a JSON request. Either can be cancelled while the engine works
 * (Cancel beside the status, or Escape).
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { uploadBundle } from '../../../shared/lab-client';
import { CancelFileWork } from '../../components/CancelFileWork';
import { labClientFor } from '../../lib/engine-client';
import { useFileProgress } from '../../lib/file-progress';
import { saveExport } from '../../lib/export/save-file';
import { labStore } from '../../store';
import { goToHash, replayHash } from './replay-route';

type Status =
  | { kind: 'busy'; text: string }
  | { kind: 'done'; text: string }
  | { kind: 'error'; text: string; retryWithReplace?: Blob };

function address() {
  const connected = labStore.getState().address;
  if (!connected) throw new Error('The engine is not connected.');
  return connected;
}

function client() {
  return labClientFor(address());
}

/** The engine's work these buttons wait on (its progress shows beside the busy line). */
const bundleMethods = ['exportBundle', 'openBundle'] as const;

/** Bytes of base64 text. */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The engine's message without the temporary path it read the upload from. */
function readable(message: string): string {
  return message.replace(/\S*cuelab-(?:bundle|upload)-[^\s/]+\/bundle\.json\.gz/g, 'The bundle');
}

/** The two bundle buttons and what the last one did. */
export function BundleControls({ studyId }: { studyId: string | null }) {
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const busy = status?.kind === 'busy';
  const progress = useFileProgress(bundleMethods, busy);

  const exportBundle = async () => {
    if (!studyId) return;
    setStatus({ kind: 'busy', text: 'Exporting…' });
    try {
      const result = await client().exportBundle({ studyId });
      if (!result.ok && result.error.code === 'cancelled') {
        setStatus({ kind: 'done', text: 'Cancelled' });
        return;
      }
      if (!result.ok) throw new Error(result.error.message);
      const { fileName, base64, redacted } = result.value;
      const outcome = await saveExport({
        title: 'Export study bundle',
        defaultName: fileName,
        mimeType: 'application/gzip',
        filter: { name: 'CueLab bundle', extensions: ['gz'] },
        data: base64ToBytes(base64),
      });
      const note = redacted.length > 0 ? ` (${redacted.length} secret(s) redacted)` : '';
      setStatus(
        outcome === null
          ? { kind: 'done', text: 'Export cancelled.' }
          : {
              kind: 'done',
              text: `${outcome.saved === 'path' ? `Saved ${outcome.path}` : `Downloaded ${fileName}`}${note}`,
            },
      );
    } catch (error) {
      setStatus({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  };

  const open = async (file: Blob, replace: boolean) => {
    setStatus({ kind: 'busy', text: 'Opening the bundle…' });
    try {
      // The file itself is the request body: no base64, no JSON size limit.
      const result = await uploadBundle(address(), file, replace ? { replace } : {});
      if (!result.ok && result.error.code === 'cancelled') {
        setStatus({ kind: 'done', text: 'Cancelled' });
        return;
      }
      if (!result.ok) {
        const message = readable(result.error.message);
        const present = /already in this workspace/.test(message) && !/^Rep /.test(message);
        setStatus({
          kind: 'error',
          text: message,
          ...(present ? { retryWithReplace: file } : {}),
        });
        return;
      }
      const { studyId: opened, name, reps, labels } = result.value;
      await labStore.getState().loadStudies();
      goToHash(replayHash(opened));
      // A replaced study keeps its id (and the hash): list its flips again.
      await labStore.getState().showReplayStudy(opened);
      setStatus({
        kind: 'done',
        text: `Opened ${name}: ${reps} rep${reps === 1 ? '' : 's'}, ${labels} label${labels === 1 ? '' : 's'}`,
      });
    } catch (error) {
      setStatus({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    await open(file, false);
  };

  return (
    <div className="bundle-controls" role="group" aria-label="Study bundle">
      {studyId && (
        <button
          type="button"
          className="button"
          data-testid="export-bundle"
          disabled={busy}
          title="Save this study as a bundle that replays offline on another machine (keys redacted)"
          onClick={() => void exportBundle()}
        >
          Export bundle
        </button>
      )}
      <button
        type="button"
        className="button"
        disabled={busy}
        title="Open a study bundle (.cuelab-bundle.json.gz) into this workspace"
        onClick={() => input.current?.click()}
      >
        Open bundle…
      </button>
      <input
        ref={input}
        type="file"
        accept=".gz,application/gzip"
        hidden
        data-testid="open-bundle-input"
        aria-label="Open bundle"
        onChange={(event) => void onFile(event)}
      />
      {status && (
        <span
          className={
            status.kind === 'error' ? 'bundle-status bundle-status-error' : 'bundle-status'
          }
          data-testid="bundle-status"
          role={status.kind === 'error' ? 'alert' : 'status'}
        >
          {status.text}
          {busy && progress && ` ${progress.text}`}
          {status.kind === 'error' && status.retryWithReplace && (
            <button
              type="button"
              className="button button-small"
              data-testid="bundle-replace"
              onClick={() => {
                if (status.retryWithReplace) void open(status.retryWithReplace, true);
              }}
            >
              Replace
            </button>
          )}
        </span>
      )}
      {busy && status && (
        <CancelFileWork
          workId={progress?.workId ?? null}
          label={status.text.startsWith('Exporting') ? 'Cancel the export' : 'Cancel opening'}
        />
      )}
    </div>
  );
}
