import { useRef, useState, type DragEvent } from 'react';
import { uploadLimits } from '../../../shared/lab-api/import';
import { CancelFileWork } from '../../components/CancelFileWork';
import { useFileProgress } from '../../lib/file-progress';
import { useLab } from '../../store';
import { filesFromDataTransfer, fromFileList, megabytes } from './drop-upload';

/**
 * Where runs are dropped: the browser gives no path, so a dropped folder or file is
 * uploaded to the engine within the caps, then previewed like a typed path. The two buttons do
 * the same from the keyboard (a folder chooser and a file chooser).
 */
export function DropZone() {
  const upload = useLab((state) => state.importUpload);
  const uploadDropped = useLab((state) => state.uploadDropped);
  const connected = useLab((state) => state.status === 'connected');
  const [over, setOver] = useState(false);
  const folderInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const busy = upload.state === 'uploading';

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (!connected || busy) return;
    void filesFromDataTransfer(event.dataTransfer).then((drop) => uploadDropped(drop));
  };
  const onChosen = (input: HTMLInputElement | null) => {
    if (!input?.files?.length) return;
    const drop = fromFileList([...input.files]);
    input.value = '';
    void uploadDropped(drop);
  };

  return (
    <div
      className={`import-drop${over ? ' import-drop-over' : ''}`}
      data-testid="import-drop"
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p className="import-drop-title">Drop a run folder or files here</p>
      <p className="muted">
        They are uploaded to the engine (at most {megabytes(uploadLimits.maxBytes)} and{' '}
        {uploadLimits.maxFiles.toLocaleString('en')} files) and previewed below; nothing is stored
        until you import.
      </p>
      <div className="field-row">
        <button
          type="button"
          className="button"
          disabled={!connected || busy}
          onClick={() => folderInput.current?.click()}
        >
          Upload a folder…
        </button>
        <button
          type="button"
          className="button"
          disabled={!connected || busy}
          onClick={() => fileInput.current?.click()}
        >
          Upload files…
        </button>
      </div>
      <input
        ref={folderInput}
        type="file"
        hidden
        multiple
        data-testid="import-folder-input"
        // React's types lack the attribute; Chromium and Electron honour it.
        {...{ webkitdirectory: '' }}
        onChange={(event) => onChosen(event.currentTarget)}
      />
      <input
        ref={fileInput}
        type="file"
        hidden
        multiple
        data-testid="import-file-input"
        onChange={(event) => onChosen(event.currentTarget)}
      />
      <UploadStatus />
    </div>
  );
}

/** A dropped folder's name, cut with an ellipsis when long (the whole name in its tooltip). */
function UploadName({ name }: { name: string }) {
  return (
    <span className="import-upload-name" title={name}>
      {name}
    </span>
  );
}

/** The engine's work an upload waits on (staging its pieces; Cancel stops the one under way). */
const uploadMethods = ['uploadImportFiles'] as const;

function UploadStatus() {
  const upload = useLab((state) => state.importUpload);
  const cancelUpload = useLab((state) => state.cancelUpload);
  const staging = useFileProgress(uploadMethods, upload.state === 'uploading');
  if (upload.state === 'uploading') {
    return (
      <div className="import-busy-row import-upload-row">
        <p className="import-drop-status" role="status" data-testid="import-upload-status">
          Uploading <UploadName name={upload.name} />: {upload.files} of {upload.totalFiles} files,{' '}
          {megabytes(upload.bytes)} of {megabytes(upload.totalBytes)}…
        </p>
        <CancelFileWork
          workId={staging?.workId ?? null}
          label="Cancel the upload"
          onCancel={cancelUpload}
        />
      </div>
    );
  }
  if (upload.state === 'cancelled') {
    return (
      <p className="import-drop-status" role="status" data-testid="import-upload-status">
        Upload of <UploadName name={upload.name} /> cancelled; nothing was imported.
      </p>
    );
  }
  if (upload.state === 'done') {
    return (
      <p className="import-drop-status" role="status" data-testid="import-upload-status">
        Uploaded <UploadName name={upload.name} /> ({upload.files} file
        {upload.files === 1 ? '' : 's'}, {megabytes(upload.bytes)}) to a temporary folder on the
        engine; its path is below.
      </p>
    );
  }
  if (upload.state === 'failed') {
    return (
      <p className="banner banner-error" role="alert" data-testid="import-upload-status">
        {upload.error}
      </p>
    );
  }
  return null;
}
