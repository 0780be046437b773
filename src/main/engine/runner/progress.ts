/**
 * A study's progress as the engine reports it: the stored counts, the planned total (cued reps
 * not yet queued included, so percent done never falls as majorities are fixed) and the pace
 * and time left measured from the reps it has finished.
 */
import type { StudyProgress } from '../../../shared/study-progress';
import { providerWaits } from '../providers';
import { type Store } from '../store';
import { fixedMajorityKeys, majorityKey, recentRepTimes } from '../store/faces/jobs';
import { readStudyDefinition, studyProgress as storedProgress } from '../store/faces/studies';
import { isControl } from './conditions';
import { paceOf, paceWindowReps } from './pace';
import { dimensionOf, effectiveDirection } from './scheduling';

/** Progress of a study with its planned total, pace and ETA. */
export function studyProgress(store: Store, studyId: string, now = Date.now()): StudyProgress {
  const progress = storedProgress(store, studyId, null, now);
  const definition = readDefinition(store, studyId);
  // A cancelled study keeps the plan it was cancelled in: the cued reps it never queued count
  // as not run, so the denominator does not fall from the plan to the jobs known at the cancel.
  const plannedTotal =
    progress.total + (definition ? cuedRepsToQueue(store, studyId, definition) : 0);
  const finished = progress.arms.reduce((sum, arm) => sum + arm.done + arm.failed, 0);
  const cancelled = progress.arms.reduce((sum, arm) => sum + arm.cancelled, 0);
  const remaining = progress.status === 'cancelled' ? 0 : plannedTotal - finished - cancelled;
  const pace = paceOf({
    recent: recentRepTimes(store, studyId, paceWindowReps),
    remaining,
    parallelLimit: definition
      ? Math.min(definition.spec.concurrency.total, definition.spec.concurrency.containers)
      : 1,
  });
  return {
    ...progress,
    plannedTotal,
    repsPerMinute: pace?.repsPerMinute ?? null,
    etaSeconds: pace ? pace.etaSeconds : null,
    providerWait: progress.status === 'running' && definition ? providerWaitOf(definition) : null,
  };
}

/** The longest provider rate-limit wait one of the study's judges is in, or null. */
function providerWaitOf(definition: StudyDefinition): StudyProgress['providerWait'] {
  const labels = new Set(
    definition.spec.judges.map((judge) =>
      judge.provider === 'openai-compatible' && judge.baseUrl ? judge.baseUrl : judge.provider,
    ),
  );
  const waits = providerWaits().filter((wait) => labels.has(wait.provider));
  return waits.sort((a, b) => b.untilMs - a.untilMs)[0] ?? null;
}

/**
 * Cued reps the `opposite` policy will queue once the remaining majorities are fixed: for each
 * item × judge × dimension without a majority yet, reps × that dimension's cued conditions.
 * An item that turns out undetermined queues none, so the planned total can only shrink then.
 */
function cuedRepsToQueue(store: Store, studyId: string, definition: StudyDefinition): number {
  if (effectiveDirection(definition.spec) !== 'opposite') return 0;
  const { spec, conditions, itemIds } = definition;
  const cuedByDimension = new Map<string, number>();
  for (const condition of conditions) {
    if (isControl(condition)) continue;
    const dimension = dimensionOf(spec, condition);
    cuedByDimension.set(dimension, (cuedByDimension.get(dimension) ?? 0) + 1);
  }
  const fixed = fixedMajorityKeys(store, studyId);
  let pending = 0;
  for (const itemId of itemIds) {
    for (const judge of spec.judges) {
      for (const [dimension, cued] of cuedByDimension) {
        if (!fixed.has(majorityKey(itemId, judge.id, dimension))) pending += cued * spec.reps;
      }
    }
  }
  return pending;
}

type StudyDefinition = NonNullable<ReturnType<typeof readStudyDefinition>>;

/**
 * The study's definition. An imported study's stored spec is not a runnable one and does not
 * parse; it has nothing left to queue, so it plans nothing beyond its jobs.
 */
function readDefinition(store: Store, studyId: string): StudyDefinition | undefined {
  try {
    return readStudyDefinition(store, studyId);
  } catch {
    return undefined;
  }
}
