import { useId } from 'react';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';

function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? '' : ` (${Math.round(bytes / 1_048_576)} MB)`;
}

/**
 * Docker and the judges' base image: availability with the exact fix when Docker is missing,
 * whether the image exists, and a button that builds it with live progress.
 */
export function EnvironmentPanel() {
  const headingId = useId();
  const environment = useLab((state) => state.environment);
  const log = useLab((state) => state.bootstrapLog);
  const loadEnvironment = useLab((state) => state.loadEnvironment);
  const startBootstrap = useLab((state) => state.startBootstrap);
  const status = loadedValue(environment);
  const last = log[log.length - 1];
  const building = status?.bootstrapRunning === true || (last !== undefined && !last.done);

  return (
    <section className="panel" aria-labelledby={headingId} data-testid="environment-panel">
      <div className="panel-title-row">
        <h2 id={headingId}>Docker and base image</h2>
        <button
          type="button"
          className="button button-small"
          onClick={() => void loadEnvironment()}
          disabled={environment.state === 'loading'}
        >
          Check again
        </button>
      </div>
      {environment.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not read the environment: {environment.error}
        </div>
      )}
      {!status && environment.state !== 'failed' && <p className="muted">Checking Docker…</p>}
      {status?.dockerAvailable && (
        <p>
          <span className="status-pill status-completed">Available</span>{' '}
          {status.dockerVersion ? `Docker ${status.dockerVersion}. ` : ''}Judges’ tool calls run in
          containers.
        </p>
      )}
      {status && !status.dockerAvailable && (
        <>
          <p>
            <span className="status-pill status-failed">Unavailable</span>{' '}
            {status.problem ?? 'The engine could not reach Docker.'} Judges run their commands only
            inside containers, so studies that use a shell need it.
          </p>
          {status.fix && (
            <>
              <p className="muted">To make it available:</p>
              <pre className="code-block">
                <code>{status.fix}</code>
              </pre>
            </>
          )}
        </>
      )}
      {status && (
        <dl className="facts settings-facts">
          <dt>Base image</dt>
          <dd>
            <span className="mono">{status.baseImage.tag}</span>{' '}
            {status.baseImage.present ? (
              <span className="badge badge-ok">present{megabytes(status.baseImage.sizeBytes)}</span>
            ) : (
              <span className="badge badge-warn">absent</span>
            )}
          </dd>
        </dl>
      )}
      {status && (
        <div className="settings-actions">
          <button
            type="button"
            className="button"
            data-testid="build-base-image"
            disabled={!status.dockerAvailable || building}
            onClick={() => void startBootstrap()}
          >
            {building ? 'Building base image…' : 'Build base image'}
          </button>
          <span className="muted">
            {status.dockerAvailable
              ? 'Builds once; shell-using items need it before their first rep.'
              : 'Needs Docker.'}
          </span>
        </div>
      )}
      {log.length > 0 && (
        <ol className="bootstrap-log" aria-live="polite" data-testid="bootstrap-log">
          {log.map((line, index) => (
            <li key={index} className={line.error ? 'bootstrap-error' : undefined}>
              {line.message}
              {line.error ? ` ${line.error}` : ''}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
