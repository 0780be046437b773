import { isSimulatedProvider } from '../../../shared/catalogue/providers';
import { ariaShortcut, commandById, formatShortcut } from '../../commands';
import { NumberField } from '../../components/NumberField';
import { formatBytes, formatCount, formatDuration, formatUsd } from '../../components/numbers';
import { loadedValue } from '../../lib/loadable';
import { hashForSection } from '../../sections';
import { labStore, useLab } from '../../store';
import { draftProblems, fallbackName, type BuilderDraft } from './builder-draft';
import { launchFromBuilder } from './builder-actions';
import { cuedRepsNote } from './cued-note';
import { SafetyFields } from './SafetyFields';
import { EstimatePower } from './EstimatePower';
import './launch.css';

/** The engine's estimate: the product, cost and time, and what stands in the way. */
function Estimate({ draft }: { draft: BuilderDraft }) {
  const estimate = useLab((state) => state.estimate);
  const problems = draftProblems(draft);
  const value = loadedValue(estimate);
  const simulated = draft.judges.some((judge) => isSimulatedProvider(judge.provider));
  const state = problems.length ? 'incomplete' : estimate.state;
  return (
    <div
      className="estimate"
      data-testid="estimate"
      data-state={state}
      data-total-reps={estimate.state === 'loaded' ? estimate.value.totalReps : undefined}
      data-conditions={estimate.state === 'loaded' ? estimate.value.conditions : undefined}
      aria-live="polite"
    >
      <div className="estimate-head">
        <h3>Estimate</h3>
        {simulated && <span className="badge badge-simulated">simulated</span>}
        {estimate.state === 'loading' && <span className="muted small">updating…</span>}
      </div>
      {problems.length > 0 ? (
        <ul className="estimate-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : estimate.state === 'failed' ? (
        <div className="banner banner-error" role="alert">
          {estimate.error}
        </div>
      ) : value ? (
        <>
          <p className="estimate-product tabular">
            {value.conditions} conditions × {value.items} items × {value.judges} judge
            {value.judges === 1 ? '' : 's'} × {value.reps} reps
          </p>
          <p className="estimate-total tabular">
            <strong>{formatCount(value.totalReps)}</strong> reps
          </p>
          <p className="muted small tabular">
            {formatCount(value.uncuedReps)} uncued
            {draft.uncuedRepeat ? ' (the control run twice: uncued repeat)' : ''} + up to{' '}
            {formatCount(value.cuedReps)} cued
          </p>
          <p className="muted small" data-testid="cued-note">
            Cued reps: {cuedRepsNote(draft.direction, draft.dimension)}.
          </p>
          <dl className="facts estimate-facts">
            <dt>Cost</dt>
            <dd className="tabular">
              {value.estimatedCostUsd === null
                ? 'unknown (a model has no price)'
                : formatUsd(value.estimatedCostUsd)}
              {value.estimatedCostUsd !== null &&
                value.estimatedCostWithoutCacheUsd != null &&
                value.estimatedCostWithoutCacheUsd > value.estimatedCostUsd && (
                  <span className="muted small" data-testid="estimate-uncached">
                    {' '}
                    with prompt caching; {formatUsd(value.estimatedCostWithoutCacheUsd)} without
                  </span>
                )}
            </dd>
            <dt>Duration</dt>
            <dd className="tabular" data-testid="estimate-duration">
              about {formatDuration(value.estimatedSeconds)}{' '}
              <span className="muted small">
                {value.secondsMeasured ? '(measured on this machine)' : '(default guess)'}
              </span>
            </dd>
            <dt>Disk</dt>
            <dd className="tabular" data-testid="estimate-disk" title={value.diskBasis}>
              about {formatBytes(value.estimatedDiskBytes)}{' '}
              <span className="muted small">(measured per rep)</span>
            </dd>
          </dl>
          <p className="muted small" data-testid="estimate-time-basis">
            {value.secondsBasis}
          </p>
          <p className="muted small">{value.basis}</p>
          <EstimatePower estimate={value} />
          {value.warnings.map((warning) => (
            <div key={warning.code} className="banner banner-warning estimate-warning">
              <p>{warning.message}</p>
              {warning.fix && <pre className="code-block">{warning.fix}</pre>}
              {settingsWarnings.has(warning.code) && (
                <a className="button button-small" href={hashForSection('settings')}>
                  Open Settings
                </a>
              )}
            </div>
          ))}
        </>
      ) : (
        <p className="muted">Estimating…</p>
      )}
    </div>
  );
}

const launchCommand = commandById('builder.launch');
/** Warnings whose fix lives in Settings (keys, Docker and its base image). */
const settingsWarnings = new Set(['missing_key', 'bootstrap_needed', 'docker_down']);

/**
 * Asks before a judge's key and prompts go to an endpoint that is not its provider's own host
 * (a spec opened from someone else may name theirs). Confirming trusts them for this session.
 */
function EndpointConfirmation({ endpoints }: { endpoints: string[] }) {
  const cancelLaunch = useLab((state) => state.cancelLaunch);
  return (
    <div
      className="banner banner-warning endpoint-confirm"
      role="alertdialog"
      aria-label="Confirm judge endpoints"
      data-testid="endpoint-confirm"
    >
      <p>
        This study sends your API key and every prompt to{' '}
        {endpoints.length === 1 ? 'an endpoint' : 'endpoints'} that{' '}
        {endpoints.length === 1 ? 'is' : 'are'} not the provider&apos;s own API host:
      </p>
      <ul>
        {endpoints.map((endpoint) => (
          <li key={endpoint}>
            <code>{endpoint}</code>
          </li>
        ))}
      </ul>
      <p>Launch only if you run or trust {endpoints.length === 1 ? 'it' : 'them'}.</p>
      <div className="endpoint-confirm-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid="trust-endpoints"
          onClick={() => void launchFromBuilder(labStore, endpoints)}
        >
          Trust and launch
        </button>
        <button type="button" className="button" onClick={cancelLaunch}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** Name, reps and seed, the estimate, and the launch button: the builder's right column. */
export function LaunchPanel() {
  const draft = useLab((state) => state.draft);
  const launch = useLab((state) => state.launch);
  const estimateFailed = useLab((state) => state.estimate.state === 'failed');
  const connected = useLab((state) => state.status === 'connected');
  const updateDraft = useLab((state) => state.updateDraft);
  const blocked =
    !connected || launch.state === 'launching' || estimateFailed || draftProblems(draft).length > 0;
  const shortcut = launchCommand.shortcut;
  return (
    <aside className="panel launch-panel" aria-label="Launch">
      <label className="field">
        <span className="field-label">Study name</span>
        <input
          className="input"
          value={draft.name}
          placeholder={fallbackName(draft)}
          onChange={(event) => updateDraft(() => ({ name: event.target.value }))}
        />
      </label>
      <div className="field-row launch-numbers">
        <NumberField
          label="Reps per arm"
          integer
          min={1}
          max={50}
          value={draft.reps}
          onChange={(reps) => updateDraft(() => ({ reps: reps ?? draft.reps }))}
        />
        <NumberField
          label="Seed"
          integer
          value={draft.seed}
          onChange={(seed) => updateDraft(() => ({ seed: seed ?? draft.seed }))}
        />
      </div>
      <SafetyFields />
      <Estimate draft={draft} />
      <button
        type="button"
        className="button button-primary launch-button"
        data-testid="launch-study"
        disabled={blocked}
        aria-keyshortcuts={shortcut ? ariaShortcut(shortcut) : undefined}
        onClick={() => void launchFromBuilder(labStore)}
      >
        {launch.state === 'launching' ? 'Launching…' : 'Launch study'}
        {shortcut && <kbd className="hint">{formatShortcut(shortcut)}</kbd>}
      </button>
      {launch.state === 'confirm' && <EndpointConfirmation endpoints={launch.endpoints} />}
      {launch.state === 'failed' && (
        <div className="banner banner-error" role="alert">
          Could not launch: {launch.error}
        </div>
      )}
    </aside>
  );
}
