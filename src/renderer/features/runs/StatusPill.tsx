import type { StudyStatus } from '../../../shared/lab-api';

const statusLabels: Record<StudyStatus, string> = {
  draft: 'Draft',
  queued: 'Queued',
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Completed',
  failed: 'Failed',
};

/** A study's status as a coloured pill. */
export function StatusPill({ status }: { status: StudyStatus }) {
  return <span className={`status-pill status-${status}`}>{statusLabels[status]}</span>;
}
