import type { StudyProgress } from '../../../shared/study-progress';
import { ProgressBar } from '../../components/ProgressBar';
import { formatCount } from '../../components/numbers';

type Arm = StudyProgress['arms'][number];

function armTotal(arm: Arm): number {
  return arm.queued + arm.running + arm.done + arm.failed + arm.cancelled;
}

/**
 * Per-condition progress: each arm's key with a fixed-size bar under it (so a narrow window
 * squeezes no column to nothing) and its counts in tabular figures. Cued
 * arms fill in as each item's uncued majority is fixed, so an empty cued arm says so.
 */
export function ArmProgress({ progress }: { progress: StudyProgress }) {
  const active = ['queued', 'running', 'paused'].includes(progress.status);
  return (
    <table className="data-table arm-table">
      <caption className="visually-hidden">Progress per condition</caption>
      <colgroup>
        <col className="arm-col-label" />
        <col className="arm-col-count" />
        <col className="arm-col-count" />
        <col className="arm-col-count" />
        <col className="arm-col-count" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">Condition and progress</th>
          <th scope="col" className="numeric-head">
            Done
          </th>
          <th scope="col" className="numeric-head">
            Running
          </th>
          <th scope="col" className="numeric-head">
            Queued
          </th>
          <th scope="col" className="numeric-head">
            Failed
          </th>
        </tr>
      </thead>
      <tbody>
        {progress.arms.map((arm) => {
          const total = armTotal(arm);
          return (
            <tr key={arm.key} data-testid="arm-progress" data-key={arm.key} data-done={arm.done}>
              <th scope="row" className="arm-label" title={arm.label}>
                <div className="arm-label-stack">
                  <span className="mono">{arm.key}</span>
                  {total === 0 ? (
                    <span className="muted small arm-empty">
                      {active ? 'waiting for uncued majorities' : 'none queued'}
                    </span>
                  ) : (
                    <ProgressBar label={`Progress of ${arm.key}`} counts={arm} />
                  )}
                </div>
              </th>
              <td className="numeric">
                {formatCount(arm.done)}
                <span className="of"> / {formatCount(total)}</span>
              </td>
              <td className="numeric">{formatCount(arm.running)}</td>
              <td className="numeric">{formatCount(arm.queued)}</td>
              <td className="numeric" data-failed={arm.failed > 0}>
                {formatCount(arm.failed)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The failed reps, grouped by the reason they gave up (one reason often fails many reps). */
export function FailureList({
  entries,
  total,
  what = 'failed reps',
}: {
  /** The jobs shown (the engine sends at most 50). */
  entries: StudyProgress['failures'];
  /** How many there are in all. */
  total: number;
  what?: string;
}) {
  const byReason = new Map<string, StudyProgress['failures']>();
  for (const entry of entries) {
    byReason.set(entry.error, [...(byReason.get(entry.error) ?? []), entry]);
  }
  const shown = entries.length;
  return (
    <div className="failure-groups">
      {[...byReason].map(([reason, group]) => (
        <div key={reason} className="failure-group">
          <p className="failure-count tabular">
            {formatCount(group.length)} rep{group.length === 1 ? '' : 's'}
          </p>
          <pre className="failure-reason">{reason}</pre>
          <ul className="failure-reps">
            {group.map((entry) => (
              <li key={entry.jobId} className="mono">
                {entry.conditionKey} · {entry.itemId} · {entry.judgeId} · rep {entry.rep}
                {entry.direction ? ` · ${entry.direction}` : ''} · attempt {entry.attempts}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {total > shown && (
        <p className="muted small">
          Showing the first {formatCount(shown)} of {formatCount(total)} {what}.
        </p>
      )}
    </div>
  );
}
