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
