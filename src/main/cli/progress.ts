import { formatCacheHitRate, formatPace, type StudyProgress } from '../../shared/study-progress';

/**
 * One line of progress: done of the planned total, percent, pace and ETA (measured by the
 * engine; "eta –" only before the first rep has finished), cost, failures.
 */
export function formatProgress(progress: StudyProgress): string {
  const planned = progress.plannedTotal;
  const percent = planned ? Math.floor((progress.done / planned) * 100) : 0;
  const pace = progress.repsPerMinute === null ? '' : ` · ${formatPace(progress.repsPerMinute)}`;
  // A study that ended has no time left to tell; a paused one still has its work's worth.
  const ended = ['completed', 'cancelled', 'failed'].includes(progress.status);
  const eta = ended
    ? ''
    : progress.etaSeconds === null
      ? ' · eta –'
      : ` · eta ${formatSeconds(progress.etaSeconds)}${pace}`;
  const cost = `$${progress.costUsd.toFixed(2)}${progress.unpricedReps ? ` (+${progress.unpricedReps} unpriced)` : ''}`;
  const retrying = progress.retrying ? ` · ${progress.retrying} retrying` : '';
  const hits = formatCacheHitRate(progress.promptCache);
  const cache = hits ? ` · ${hits}` : '';
  const wait = progress.providerWait
    ? ` · waiting ${formatSeconds(Math.max(0, (progress.providerWait.untilMs - Date.now()) / 1000))} on ${progress.providerWait.reason}`
    : '';
  return `[${progress.done}/${planned}] ${percent}% · ${progress.running} running${retrying}${eta} · ${cost}${cache}${wait} · ${progress.failed} failed · ${progress.status}`;
}

/**
 * How the done reps ended, when any did not end in a verdict: "done: 10 (8 verdict,
 * 1 invalid_verdict, 1 budget_exhausted)". Only verdict reps count in the tables.
 */
export function formatOutcomes(progress: StudyProgress): string {
  const { verdict, invalidVerdict, budgetExhausted } = progress.outcomes;
  return (
    `done: ${progress.done} (${verdict} verdict, ${invalidVerdict} invalid_verdict, ` +
    `${budgetExhausted} budget_exhausted)`
  );
}

/** A status table: one row per arm. */
export function formatArms(progress: StudyProgress): string {
  const width = Math.max(9, ...progress.arms.map((arm) => arm.label.length));
  const lines = [`${'condition'.padEnd(width)}  done  queued  running  failed`];
  for (const arm of progress.arms) {
    lines.push(
      `${arm.label.padEnd(width)}  ${String(arm.done).padStart(4)}  ${String(arm.queued).padStart(6)}  ${String(arm.running).padStart(7)}  ${String(arm.failed).padStart(6)}`,
    );
  }
  return lines.join('\n');
}

/** 75 → "1m15s". */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
