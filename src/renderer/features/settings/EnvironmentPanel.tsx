import { useId } from 'react';
import { loadedValue } from '../../lib/loadable';
import { useLab } from '../../store';
import type { BootstrapImage, BootstrapLine, EnvironmentStatus } from './environment-slice';
import { postgresName } from '../../../shared/substrates/postgres';

function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? '' : ` (${Math.round(bytes / 1_048_576)} MB)`;
}

/** Each image Settings can build: its label, where its status is, and what needs it. */
const images: {
  image: BootstrapImage;
  label: string;
  /** As a button says it. */
  name: string;
  field: 'baseImage' | 'postgresImage';
  need: string;
}[] = [
  {
    image: 'base',
    label: 'Base image',
    name: 'base image',
    field: 'baseImage',
    need: 'Builds once (about a minute); shell-using items need it before their first rep.',
  },
  {
    image: postgresName,
    label: 'PostgreSQL image',
    name: 'PostgreSQL image',
    field: 'postgresImage',
    need: 'Builds once (a few minutes, about 500 MB); PostgreSQL items need it, else their first rep builds it.',
  },
];

/** True while the engine builds `image`, by its status or by the newest progress line. */
function isBuilding(
  image: BootstrapImage,
  status: EnvironmentStatus | undefined,
  log: BootstrapLine[],
): boolean {
  const last = [...log].reverse().find((line) => (line.image ?? 'base') === image);
  return status?.building.includes(image) === true || (last !== undefined && !last.done);
}

/**
 * Docker and the judges' images (base and PostgreSQL): availability with the exact fix when
 * Docker is missing, whether each image exists or is being built, and a button per image that
 * builds it with live progress.
 */
export function EnvironmentPanel() {
  const headingId = useId();
  const environment = useLab((state) => state.environment);
  const log = useLab((state) => state.bootstrapLog);
  const loadEnvironment = useLab((state) => state.loadEnvironment);
  const startBootstrap = useLab((state) => state.startBootstrap);
  const status = loadedValue(environment);

  return (
    <section className="panel" aria-labelledby={headingId} data-testid="environment-panel">
      <div className="panel-title-row">
        <h2 id={headingId}>Docker and images</h2>
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
      {status?.dockerSlow && (
        <p data-testid="docker-busy">
          <span className="status-pill status-paused">Busy</span>{' '}
          {status.dockerVersion ? `Docker ${status.dockerVersion}. ` : ''}
          {status.problem ?? 'Docker is slow to answer.'}
        </p>
      )}
      {status?.dockerAvailable && !status.dockerSlow && (
        <p>
          <span className="status-pill status-completed">Available</span>{' '}
          {status.dockerVersion ? `Docker ${status.dockerVersion}. ` : ''}Judges’ tool calls run in
          containers.
        </p>
      )}
      {status && !status.dockerAvailable && !status.dockerSlow && (
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
          {images.map(({ image, label, field }) => {
            const facts = status[field];
            const building = isBuilding(image, status, log);
            return (
              <div key={image} className="settings-image" data-testid={`image-${image}`}>
                <dt>{label}</dt>
                <dd>
                  <span className="mono">{facts.tag}</span>{' '}
                  {building ? (
                    <span className="badge badge-warn">building…</span>
                  ) : status.dockerSlow && !status.dockerLastAnswered ? (
                    <span className="badge">not known yet (Docker is busy)</span>
                  ) : facts.present ? (
                    <span className="badge badge-ok">present{megabytes(facts.sizeBytes)}</span>
                  ) : (
                    <span className="badge badge-warn">absent</span>
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      {status &&
        images.map(({ image, name, need }) => {
          const building = isBuilding(image, status, log);
          return (
            <div key={image} className="settings-actions">
              <button
                type="button"
                className="button"
                data-testid={image === 'base' ? 'build-base-image' : 'build-postgres-image'}
                disabled={!status.dockerAvailable || building}
                onClick={() => void startBootstrap(image)}
              >
                {building ? `Building ${name}…` : `Build ${name}`}
              </button>
              <span className="muted">{status.dockerAvailable ? need : 'Needs Docker.'}</span>
            </div>
          );
        })}
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
