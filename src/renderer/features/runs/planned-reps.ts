/**
 * What the Runs screen shows of a study's planned reps. The engine counts the cued reps still
 * to be queued in `plannedTotal` and measures pace and ETA from finished reps, so the window
 * computes nothing of its own: percent done never falls and the ETA does not come and go.
 */
import type { StudyProgress } from '../../../shared/study-progress';

export { formatPace } from '../../../shared/study-progress';

/** Reps still to run and not running: queued, and cued reps not yet queued. */
export function waitingReps(progress: StudyProgress): number {
  const ended = progress.arms.reduce((sum, arm) => sum + arm.done + arm.failed + arm.cancelled, 0);
  return Math.max(0, progress.plannedTotal - ended - progress.running);
}

/** Cued reps the plan counts that are not queued yet (their items' majorities are open). */
export function cuedRepsToQueue(progress: StudyProgress): number {
  return Math.max(0, progress.plannedTotal - progress.total);
}

/** Whether a study can still run reps (its waiting reps are queued, not abandoned). */
function stillRunning(progress: StudyProgress): boolean {
  return ['draft', 'queued', 'running', 'paused'].includes(progress.status);
}

/**
 * What a study's progress bar draws against its whole plan. Reps waiting in a study that can
 * still run are queued; in a cancelled or failed study they will never run and are drawn as
 * not run (with the reps cancelled in flight), so the bar never looks fuller than the work done.
 * An imported study has no jobs: its reps are all done.
 */
export function barCounts(progress: StudyProgress) {
  if (progress.total === 0 && progress.importedReps > 0)
    return { done: progress.importedReps, running: 0, failed: 0, queued: 0, cancelled: 0 };
  const waiting = waitingReps(progress);
  const cancelled = progress.arms.reduce((sum, arm) => sum + arm.cancelled, 0);
  const running = stillRunning(progress);
  return {
    done: progress.done,
    running: progress.running,
    failed: progress.failed,
    queued: running ? waiting : 0,
    cancelled: cancelled + (running ? 0 : waiting),
  };
}

/** "18 / 1,680 reps", or "1,440 reps imported" for an imported study. */
export function repsLine(progress: StudyProgress, format: (value: number) => string): string {
  if (progress.total === 0 && progress.importedReps > 0)
    return `${format(progress.importedReps)} reps imported`;
  return `${format(progress.done)} / ${format(progress.plannedTotal)} reps`;
}
