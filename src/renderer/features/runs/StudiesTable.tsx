import type { StudyStatus, StudySummary } from '../../../shared/lab-api';
import { formatDateTime } from '../../lib/format';

const statusLabels: Record<StudyStatus, string> = {
  draft: 'Draft',
  queued: 'Queued',
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Completed',
  failed: 'Failed',
};

/** The studies in the workspace, newest first. */
export function StudiesTable({ studies }: { studies: StudySummary[] }) {
  return (
    <table className="data-table">
      <caption className="visually-hidden">Studies in this workspace</caption>
      <thead>
        <tr>
          <th scope="col">Study</th>
          <th scope="col">Status</th>
          <th scope="col">Updated</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {studies.map((study) => (
          <tr key={study.id}>
            <th scope="row">
              <span className="study-name">{study.name}</span>
              {study.simulated && <span className="badge badge-simulated">simulated</span>}
            </th>
            <td>
              <span className={`status-pill status-${study.status}`}>
                {statusLabels[study.status]}
              </span>
            </td>
            <td className="numeric">{formatDateTime(study.updatedAt)}</td>
            <td className="numeric">{formatDateTime(study.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
