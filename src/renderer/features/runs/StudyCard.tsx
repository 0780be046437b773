import { memo, useEffect } from 'react';
import type { StudySummary } from '../../../shared/lab-api';
import { ProgressBar } from '../../components/ProgressBar';
import { formatCount } from '../../components/numbers';
import { useLab } from '../../store';
import { hashForStudy } from './run-route';
import { barCounts, repsLine } from './planned-reps';
import { StatusPill } from './StatusPill';

const shortDate = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function formatShortDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : shortDate.format(date);
}

/**
 * One study in the list: name, status and overall progress. It selects only its own progress
 * entry, so another study's events do not re-render it.
 */
export const StudyCard = memo(function StudyCard({
  study,
  selected,
}: {
  study: StudySummary;
  selected: boolean;
}) {
  const progress = useLab((state) => state.progressByStudy[study.id]);
  const loadProgress = useLab((state) => state.loadProgress);
  const connected = useLab((state) => state.status === 'connected');
  const hasProgress = progress !== undefined;

  useEffect(() => {
    if (connected && !hasProgress) void loadProgress(study.id);
  }, [connected, hasProgress, loadProgress, study.id]);

  const status = progress?.status ?? study.status;
  const done = progress?.done ?? 0;
  const total = progress?.plannedTotal ?? 0;
  return (
    <a
      className="study-card"
      href={hashForStudy(study.id)}
      aria-current={selected ? 'true' : undefined}
      data-testid="study-card"
      data-study-id={study.id}
      data-status={status}
    >
      <span className="study-card-top">
        <span className="study-card-name" title={study.name}>
          {study.name}
        </span>
        <StatusPill status={status} />
      </span>
      <span
        className="study-card-progress"
        data-testid="study-progress"
        data-done={done}
        data-total={total}
      >
        <ProgressBar
          size="thin"
          label={`Progress of ${study.name}`}
          counts={progress ? barCounts(progress) : { done: 0, running: 0, failed: 0, queued: 0 }}
        />
        <span className="study-card-meta tabular">
          <span>{progress ? repsLine(progress, formatCount) : '…'}</span>
          {study.simulated && <span className="badge badge-simulated">simulated</span>}
          <span className="study-card-date" title={study.createdAt}>
            {formatShortDate(study.createdAt)}
          </span>
        </span>
      </span>
    </a>
  );
});
