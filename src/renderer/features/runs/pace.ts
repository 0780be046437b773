/**
 * A fallback ETA from the pace the window has watched: when the engine reports no
 * `etaSeconds`, the rate of finished reps over the last two minutes, applied to the reps still
 * queued or running. It needs two reports a few seconds apart, so right after a reload the ETA
 * reads "—" until reps land.
 */
import type { StudyProgress } from '../../../shared/study-progress';

interface Sample {
  at: number;
  done: number;
}

const windowMs = 120_000;
const samplesByStudy = new Map<string, Sample[]>();

/** Reps still to run: queued or running in any arm. */
export function openReps(progress: StudyProgress): number {
  return progress.arms.reduce((sum, arm) => sum + arm.queued + arm.running, 0);
}

/** The report, with `etaSeconds` filled from the watched pace when the engine gave none. */
export function withPaceEta(progress: StudyProgress, now: number = Date.now()): StudyProgress {
  if (progress.etaSeconds !== null) return progress;
  let samples = samplesByStudy.get(progress.studyId) ?? [];
  const latest = samples[samples.length - 1];
  // A retry can lower `done`; the old pace no longer applies.
  if (latest && progress.done < latest.done) samples = [];
  if (!latest || progress.done !== latest.done) samples.push({ at: now, done: progress.done });
  while (samples.length > 2 && now - (samples[0]?.at ?? now) > windowMs) samples.shift();
  samplesByStudy.set(progress.studyId, samples);

  const first = samples[0];
  const last = samples[samples.length - 1];
  if (progress.status !== 'running' || !first || !last) return progress;
  const seconds = (now - first.at) / 1000;
  const finished = last.done - first.done;
  if (finished <= 0 || seconds < 3) return progress;
  return { ...progress, etaSeconds: openReps(progress) / (finished / seconds) };
}
