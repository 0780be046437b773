/** Above the figures: which study, which cued arm, and how far the study has got. */
import { useId } from 'react';
import type { StudySummary } from '../../../shared/lab-api';
import { formatDateTime } from '../../lib/format';
import { useLab } from '../../store';
import { showStudyResults } from './results-route';

const statusLabels: Record<StudySummary['status'], string> = {
  draft: 'Draft',
  queued: 'Queued',
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Completed',
  failed: 'Failed',
};

/** The study selector. */
export function StudyPicker({ studies, value }: { studies: StudySummary[]; value: string }) {
  const id = useId();
  return (
    <label className="results-field" htmlFor={id}>
      <span>Study</span>
      <select
        id={id}
        data-testid="results-study"
        value={value}
        onChange={(event) => showStudyResults(event.target.value)}
      >
        {!studies.some((study) => study.id === value) && <option value={value}>{value}</option>}
        {studies.map((study) => (
          <option key={study.id} value={study.id}>
            {study.name} · {formatDateTime(study.createdAt)}
            {study.simulated ? ' · simulated' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The cued arm the single-arm figures show. */
export function ArmPicker() {
  const id = useId();
  const arms = useLab((state) => state.resultsArms);
  const arm = useLab((state) => state.resultsArm);
  const choose = useLab((state) => state.chooseResultsArm);
  if (arms.length === 0) return null;
  const dimensions = new Set(arms.map((entry) => entry.dimension));
  const keyOf = (entry: { condition: string; dimension: string }) =>
    `${entry.condition}\u0000${entry.dimension}`;
  return (
    <label className="results-field" htmlFor={id}>
      <span>Cued arm</span>
      <select
        id={id}
        data-testid="results-arm"
        value={arm ? keyOf(arm) : ''}
        onChange={(event) => {
          const [condition = '', dimension = ''] = event.target.value.split('\u0000');
          choose({ condition, dimension });
        }}
      >
        {arms.map((entry) => (
          <option key={keyOf(entry)} value={keyOf(entry)}>
            {entry.condition}
            {dimensions.size > 1 ? ` · ${entry.dimension}` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Status, progress and n of the study, refreshed at most once a second. */
export function StudyStatusLine({ study }: { study: StudySummary | undefined }) {
  const progress = useLab((state) => state.resultsProgress);
  const reps = useLab((state) => state.resultTables.flips?.reps);
  const status = progress?.status ?? study?.status;
  const live = status === 'running' || status === 'queued';
  return (
    <div className="results-status" aria-live="polite" data-testid="results-status">
      {status && <span className={`status-pill status-${status}`}>{statusLabels[status]}</span>}
      {progress && progress.total > 0 && (
        <span className="numeric">
          {progress.done} / {progress.plannedTotal} jobs done
          {progress.failed > 0 ? ` · ${progress.failed} failed` : ''}
        </span>
      )}
      {reps !== undefined && (
        <span className="numeric">
          n = {reps} {reps === 1 ? 'rep' : 'reps'} analysed
        </span>
      )}
      {live && <span className="muted">updates live, at most once a second</span>}
      {study?.simulated && <span className="badge badge-simulated">simulated</span>}
    </div>
  );
}
