import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ImportFolder } from '../../../shared/lab-api/import';
import { labClientFor } from '../../lib/engine-client';
import { useLab } from '../../store';

const sourceLabels: Record<ImportFolder['source'], string> = {
  workspace: 'workspace',
  examples: 'example runs CueLab ships',
  settings: 'added here',
};

type FolderAnswer = { ok: true; value: ImportFolder[] } | { ok: false; error: { message: string } };

/**
 * The folders whose files the Import screen may name by path: the workspace, the example
 * runs, and folders added here (kept in the workspace). A browser gives no paths of what is
 * dropped on it, so these are how a browser lab imports a folder in place.
 */
export function ImportFoldersPanel() {
  const headingId = useId();
  const address = useLab((state) => state.address);
  const [folders, setFolders] = useState<ImportFolder[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [path, setPath] = useState('');

  useEffect(() => {
    if (!address) return;
    let live = true;
    void labClientFor(address)
      .listImportFolders({})
      .then((result) => {
        if (!live) return;
        if (result.ok) setFolders(result.value);
        else setProblem(result.error.message);
      });
    return () => {
      live = false;
    };
  }, [address]);

  const apply = async (call: () => Promise<FolderAnswer>): Promise<boolean> => {
    setBusy(true);
    const result = await call();
    setBusy(false);
    if (result.ok) {
      setFolders(result.value);
      setProblem(null);
    } else setProblem(result.error.message);
    return result.ok;
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!address) return;
    const added = await apply(() => labClientFor(address).addImportFolder({ path: path.trim() }));
    if (added) setPath('');
  };

  return (
    <section className="panel" aria-labelledby={headingId} data-testid="import-folders-panel">
      <h2 id={headingId}>Import folders</h2>
      <p className="muted">
        The Import screen reads runs by path inside these folders. Add the folder that holds your
        runs; an engine reached from another machine still takes uploads only.
      </p>
      {problem && (
        <div className="banner banner-error" role="alert">
          {problem}
        </div>
      )}
      {!folders && !problem && <p className="muted">Reading the folders…</p>}
      {folders && (
        <ul className="import-folders">
          {folders.map((folder) => (
            <li key={folder.path} data-testid="import-folder">
              <span className="mono import-folder-path">{folder.path}</span>{' '}
              <span className="muted small">{sourceLabels[folder.source]}</span>
              {folder.source === 'settings' && (
                <button
                  type="button"
                  className="button button-small"
                  disabled={busy}
                  onClick={() =>
                    address &&
                    void apply(() =>
                      labClientFor(address).removeImportFolder({ path: folder.path }),
                    )
                  }
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="key-form" onSubmit={(event) => void add(event)} aria-label="Add a folder">
        <label className="key-value">
          <span>Folder</span>
          <input
            value={path}
            onChange={(event) => setPath(event.target.value)}
            placeholder="/home/me/runs"
            spellCheck={false}
            required
          />
        </label>
        <button type="submit" className="button" disabled={busy || !path.trim()}>
          Add folder
        </button>
      </form>
    </section>
  );
}
