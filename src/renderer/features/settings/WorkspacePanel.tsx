import { useId } from 'react';
import type { WorkspaceInfo } from '../../../shared/lab-api';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';

const sourceLabels: Record<WorkspaceInfo['source'], string> = {
  flag: 'the --workspace flag',
  environment: 'the CUELAB_WORKSPACE environment variable',
  default: 'the default location',
};

/** Where the workspace lives and what its database holds. */
export function WorkspacePanel() {
  const headingId = useId();
  const workspace = useLab((state) => state.workspace);
  const info = loadedValue(workspace);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Workspace</h2>
      {workspace.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not read the workspace: {workspace.error}
        </div>
      )}
      {info ? (
        <dl className="facts">
          <dt>Folder</dt>
          <dd className="mono">{info.path}</dd>
          <dt>Database</dt>
          <dd className="mono">{info.databasePath}</dd>
          <dt>Schema</dt>
          <dd>
            version {info.schemaVersion}
            {info.schemaVersion === info.latestSchemaVersion
              ? ' (current)'
              : ` (this engine knows up to ${info.latestSchemaVersion})`}
          </dd>
          <dt>Chosen by</dt>
          <dd>{sourceLabels[info.source]}</dd>
        </dl>
      ) : (
        workspace.state !== 'failed' && <p className="muted">Reading the workspace…</p>
      )}
    </section>
  );
}
