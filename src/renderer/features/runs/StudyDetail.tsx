import { useEffect, useId, useState, type ReactNode } from 'react';
import type { StudySummary } from '../../../shared/lab-api';
import { formatCacheHitRate, type StudyProgress } from '../../../shared/study-progress';
import { commandById, formatShortcut } from '../../commands';
import { ProgressBar } from '../../components/ProgressBar';
import { formatCount, formatDuration, formatUsd } from '../../components/numbers';
import { labClientFor } from '../../lib/engine-client';
import { formatDateTime } from '../../lib/format';
import { navigateTo } from '../../lib/hash-route';
import { labStore, useLab } from '../../store';
import { specToDraft } from '../builder/builder-draft';
import { ArmProgress, FailureList } from './ArmProgress';
import { barCounts, cuedRepsToQueue, formatPace } from './planned-reps';
import { canPause, canResume } from './runs-actions';
import { StatusPill } from './StatusPill';

const pauseShortcut = commandById('runs.togglePause').shortcut;

/** Puts the study's spec into the builder, to run it again or change it. */
async function reopenInBuilder(studyId: string): Promise<void> {
  const { address, replaceDraft, closePreview, setBuilderNotice } = labStore.getState();
  if (!address) return;
  const result = await labClientFor(address).getStudySpec({ studyId });
  if (!result.ok) {
    setBuilderNotice({
      kind: 'error',
      text: `Could not read the study’s spec: ${result.error.message}`,
    });
  } else {
    replaceDraft(specToDraft(result.value));
    closePreview();
    setBuilderNotice({ kind: 'ok', text: `Opened the spec of “${result.value.name}”` });
  }
  navigateTo('builder');
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd className="tabular">{children}</dd>
    </div>
  );
}

/** True while the control arm still has reps to run, so cued arms are still being queued. */
/**
 * Time left as the engine measured it, with the pace it came from; before the first rep has
 * finished there is nothing to measure, and the figure says so rather than guessing.
 */
function EtaFigure({ progress, active }: { progress: StudyProgress; active: boolean }) {
  if (!active) return <>{progress.status === 'paused' ? 'paused' : '—'}</>;
  if (progress.etaSeconds === null) return <span className="muted">after the first rep</span>;
  return (
    <span data-testid="eta" title="Measured from the reps finished so far">
      {formatDuration(progress.etaSeconds)}
      <span className="muted small stat-sub"> {formatPace(progress.repsPerMinute)}</span>
    </span>
  );
}

/** One study: controls, totals, ETA and cost, progress per condition, failures. */
export function StudyDetail({ studyId, summary }: { studyId: string; summary?: StudySummary }) {
  const headingId = useId();
  const progress = useLab((state) => state.progressByStudy[studyId]);
  const pending = useLab((state) => state.pendingControl[studyId]);
  const problem = useLab((state) => state.progressErrors[studyId]);
  const controlStudy = useLab((state) => state.controlStudy);
  const loadProgress = useLab((state) => state.loadProgress);
  const connected = useLab((state) => state.status === 'connected');
  const [confirmCancel, setConfirmCancel] = useState(false);

  useEffect(() => {
    // Always ask on open (and after a reconnect): events only carry changes.
    if (connected) void loadProgress(studyId);
  }, [connected, loadProgress, studyId]);

  const status = progress?.status ?? summary?.status ?? 'queued';
  const name = summary?.name ?? studyId;
  const act = (action: Parameters<typeof controlStudy>[1]) => void controlStudy(studyId, action);
  const canCancel = canPause(status) || status === 'paused';

  return (
    <section
      className="panel study-detail"
      aria-labelledby={headingId}
      data-testid="study-detail"
      data-study-id={studyId}
      data-status={status}
    >
      <header className="study-detail-header">
        <div className="study-detail-title">
          <h2 id={headingId}>{name}</h2>
          <StatusPill status={status} />
          {summary?.simulated && <span className="badge badge-simulated">simulated</span>}
        </div>
        <div className="study-detail-actions">
          {canPause(status) && (
            <button
              type="button"
              className="button"
              disabled={Boolean(pending)}
              onClick={() => act('pause')}
            >
              Pause{pauseShortcut && <kbd className="hint">{formatShortcut(pauseShortcut)}</kbd>}
            </button>
          )}
          {canResume(status) && (
            <button
              type="button"
              className="button button-primary"
              disabled={Boolean(pending)}
              onClick={() => act('resume')}
            >
              Resume{pauseShortcut && <kbd className="hint">{formatShortcut(pauseShortcut)}</kbd>}
            </button>
          )}
          {canCancel &&
            (confirmCancel ? (
              <button
                type="button"
                className="button button-danger-solid"
                disabled={Boolean(pending)}
                onClick={() => act('cancel')}
              >
                Confirm cancel
              </button>
            ) : (
              <button
                type="button"
                className="button button-danger"
                onClick={() => setConfirmCancel(true)}
              >
                Cancel…
              </button>
            ))}
          <button type="button" className="button" onClick={() => void reopenInBuilder(studyId)}>
            Open in Builder
          </button>
          <a className="button" href={`#/results/${encodeURIComponent(studyId)}`}>
            Results
          </a>
        </div>
      </header>
      <p className="muted small study-detail-sub">
        <span className="mono">{studyId}</span>
        {summary && <> · created {formatDateTime(summary.createdAt)}</>}
      </p>

      {progress?.pausedReason && status !== 'completed' && (
        <div
          className={`banner ${status === 'paused' ? 'banner-warning' : 'banner-info'}`}
          role="status"
        >
          <strong>{status === 'paused' ? 'Paused: ' : ''}</strong>
          {progress.pausedReason}
        </div>
      )}
      {problem && (
        <div className="banner banner-error" role="alert">
          {problem}
        </div>
      )}

      {progress ? (
        <>
          <ProgressBar label={`Progress of ${name}`} counts={barCounts(progress)} />
          <dl className="stat-row">
            <Stat label="Done">
              {progress.total === 0 && progress.importedReps > 0
                ? `${formatCount(progress.importedReps)} imported`
                : `${formatCount(progress.done)} / ${formatCount(progress.plannedTotal)}`}
            </Stat>
            <Stat label="Running">{formatCount(progress.running)}</Stat>
            <Stat label="Retrying">{formatCount(progress.retrying)}</Stat>
            <Stat label="Failed">{formatCount(progress.failed)}</Stat>
            <Stat label="ETA">
              <EtaFigure progress={progress} active={canPause(status)} />
            </Stat>
            <Stat label="Cost so far">
              {formatUsd(progress.costUsd)}
              {progress.unpricedReps > 0 && (
                <span className="muted"> +{progress.unpricedReps} unpriced</span>
              )}
              {progress.promptCache && (
                <span className="muted small stat-sub" data-testid="cache-hit-rate">
                  {' '}
                  {formatCacheHitRate(progress.promptCache)}
                </span>
              )}
            </Stat>
          </dl>
          {progress.providerWait && canPause(status) && (
            <p className="banner banner-info" role="status" data-testid="provider-wait">
              Waiting on {progress.providerWait.reason} until{' '}
              {new Date(progress.providerWait.untilMs).toLocaleTimeString()}: CueLab paces its
              requests to stay under the limit.
            </p>
          )}
          {canPause(status) && cuedRepsToQueue(progress) > 0 && (
            <p className="muted small growth-note" data-testid="planned-note">
              The total counts {formatCount(cuedRepsToQueue(progress))} cued reps planned but not
              queued yet: each item’s are queued once its uncued majority is fixed.
            </p>
          )}
          {(status === 'cancelled' || status === 'failed') && barCounts(progress).cancelled > 0 && (
            <p className="muted small" data-testid="not-run-note">
              {formatCount(barCounts(progress).cancelled)} of the{' '}
              {formatCount(progress.plannedTotal)} planned reps were not run: the study was{' '}
              {status === 'cancelled' ? 'cancelled' : 'stopped by a failure'} (reps in flight then
              count as cancelled, not failed).
            </p>
          )}
          {progress.undeterminedItems > 0 && (
            <p className="muted small">
              {progress.undeterminedItems} item{progress.undeterminedItems === 1 ? '' : 's'} had no
              uncued majority (a tie or no valid verdict), so no cued reps were queued for them.
            </p>
          )}
          {progress.done > 0 && (
            <p className="muted small" data-testid="outcomes">
              Of the done reps: {formatCount(progress.outcomes.verdict)} with a verdict ·{' '}
              {formatCount(progress.outcomes.invalidVerdict)} invalid_verdict ·{' '}
              {formatCount(progress.outcomes.budgetExhausted)} budget_exhausted. Only verdicts vote
              and count in the tables.
            </p>
          )}
          <ArmProgress progress={progress} />
          {progress.retrying > 0 && (
            <section className="failures" aria-label="Retries in progress">
              <header className="failures-header">
                <h3>
                  Retrying <span className="muted tabular">({formatCount(progress.retrying)})</span>
                </h3>
              </header>
              <FailureList
                entries={progress.retries}
                total={progress.retrying}
                what="reps being retried"
              />
            </section>
          )}
          {progress.failed > 0 && (
            <section className="failures" aria-label="Failures">
              <header className="failures-header">
                <h3>
                  Failures <span className="muted tabular">({formatCount(progress.failed)})</span>
                </h3>
                {status !== 'cancelled' && (
                  <button
                    type="button"
                    className="button button-small"
                    disabled={Boolean(pending)}
                    onClick={() => act('retry-failed')}
                  >
                    Retry failed
                  </button>
                )}
              </header>
              <FailureList entries={progress.failures} total={progress.failed} />
            </section>
          )}
        </>
      ) : (
        <p className="muted">Reading progress…</p>
      )}
    </section>
  );
}
