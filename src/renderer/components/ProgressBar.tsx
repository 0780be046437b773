import './controls.css';

/** Counts a progress bar draws, left to right. */
export interface ProgressCounts {
  done: number;
  running: number;
  failed: number;
  queued: number;
  cancelled?: number;
}

/**
 * A fixed-size stacked bar: done, running, failed, then queued (and cancelled) as the track.
 * Its box never changes size, so streaming counts do not move the layout.
 */
export function ProgressBar({
  counts,
  label,
  size = 'normal',
}: {
  counts: ProgressCounts;
  /** Accessible name, e.g. "Progress of preset:strong@system". */
  label: string;
  size?: 'normal' | 'thin';
}) {
  const total =
    counts.done + counts.running + counts.failed + counts.queued + (counts.cancelled ?? 0);
  const share = (value: number) => (total > 0 ? `${(value / total) * 100}%` : '0%');
  return (
    <div
      className={`progress-bar progress-${size}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={counts.done}
    >
      <span className="progress-segment progress-done" style={{ width: share(counts.done) }} />
      <span
        className="progress-segment progress-running"
        style={{ width: share(counts.running) }}
      />
      <span className="progress-segment progress-failed" style={{ width: share(counts.failed) }} />
      <span
        className="progress-segment progress-cancelled"
        style={{ width: share(counts.cancelled ?? 0) }}
      />
    </div>
  );
}
