/**
 * Paired scheduling (§3.1): once an item's uncued reps for a judge are all finished, its
 * majority verdict is fixed and its cued reps are queued pointing opposite that majority, so
 * any change is the cue's doing.
 *
 * Rule for ties and invalid verdicts: reps that ended without a valid verdict (invalid_verdict,
 * budget_exhausted, failed) do not vote. The majority is the verdict more than half of the
 * valid reps gave; with no valid rep, or a tie, the item is undetermined for that judge, no
 * cued reps are queued under the `opposite` policy, and the reason is stored in
 * study_majorities.note. Graded dimensions: the uncued mean score is the reference (App. G);
 * `opposite` points the cue down (severity) when the mean is 50 or more, else up (leniency).
 */
import type { StudySpec } from '../../../shared/study-spec';
import { errorAttributionDimension } from '../judge';
import { type Store, inTransaction } from '../store';
import {
  type UncuedJobOutcome,
  hasMajority,
  insertJob,
  insertMajority,
  readUncuedJobOutcomes,
} from '../store/faces/jobs';
import type { StudyCondition } from './conditions';
import { isControl, uncuedKey } from './conditions';

/**
 * The direction policy a study actually runs. An error-attribution readout has no pass/fail
 * majority to oppose: App. B's cue asserts that the dataset's error categories are present on
 * a failing trajectory, so `opposite` means severity there, for every item, at once.
 */
export function effectiveDirection(spec: StudySpec): StudySpec['direction'] {
  return spec.direction === 'opposite' && spec.dimension === errorAttributionDimension
    ? 'severity'
    : spec.direction;
}

/** Said in the estimate when `effectiveDirection` departs from the spec's policy. */
export const ERROR_ATTRIBUTION_DIRECTION_NOTE =
  'Error attribution has no pass/fail majority to oppose: as in App. B, the cue asserts that ' +
  'error categories are present, so the `opposite` policy runs every cued rep as severity.';

/** For severity, leniency and both: cued jobs need no majority, so queue them at once. */
export function queueFixedDirectionJobs(
  store: Store,
  studyId: string,
  spec: StudySpec,
  conditions: readonly StudyCondition[],
  itemId: string,
  judgeId: string,
): void {
  const policy = effectiveDirection(spec);
  if (policy === 'opposite') return;
  const directions = policy === 'both' ? (['severity', 'leniency'] as const) : [policy];
  queueCued(store, studyId, spec, conditions, itemId, judgeId, directions);
}

function queueCued(
  store: Store,
  studyId: string,
  spec: StudySpec,
  conditions: readonly StudyCondition[],
  itemId: string,
  judgeId: string,
  directions: readonly ('severity' | 'leniency')[],
): number {
  let queued = 0;
  for (const condition of conditions) {
    if (isControl(condition)) continue;
    for (const direction of directions) {
      for (let rep = 1; rep <= spec.reps; rep += 1) {
        const key = { studyId, conditionKey: condition.key, itemId, judgeId, rep, direction };
        if (insertJob(store, key)) queued += 1;
      }
    }
  }
  return queued;
}

/** The majority of finished uncued reps, or why there is none. */
export function uncuedMajority(
  rows: readonly { verdict: 'pass' | 'fail' | null; score: number | null }[],
): {
  majority: 'pass' | 'fail' | null;
  meanScore: number | null;
  valid: number;
  note: string | null;
} {
  const scores = rows.map((row) => row.score).filter((score): score is number => score !== null);
  const meanScore = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
  const verdicts = rows
    .map((row) => row.verdict)
    .filter((verdict): verdict is 'pass' | 'fail' => verdict !== null);
  if (meanScore !== null && verdicts.length === 0)
    return { majority: null, meanScore, valid: scores.length, note: null };
  const pass = verdicts.filter((verdict) => verdict === 'pass').length;
  const fail = verdicts.length - pass;
  if (verdicts.length === 0)
    return { majority: null, meanScore, valid: 0, note: 'no uncued rep gave a valid verdict' };
  if (pass === fail)
    return {
      majority: null,
      meanScore,
      valid: verdicts.length,
      note: `tie: ${pass} pass, ${fail} fail`,
    };
  return { majority: pass > fail ? 'pass' : 'fail', meanScore, valid: verdicts.length, note: null };
}

/** The dimension a condition judges. */
export function dimensionOf(spec: StudySpec, condition: StudyCondition | undefined): string {
  return condition?.dimension ?? spec.dimension;
}

/**
 * Called when an uncued job of (item, judge) finishes for good — of the study's own dimension,
 * or of an extra one (`controlKey` `uncued#DIMENSION`). When all of them have, fixes that
 * dimension's majority and, under the `opposite` policy, queues its cued jobs. Idempotent.
 * Returns how many jobs it queued (the runner wakes its idle workers only for new work).
 */
export function onUncuedFinished(
  store: Store,
  studyId: string,
  spec: StudySpec,
  conditions: readonly StudyCondition[],
  itemId: string,
  judgeId: string,
  controlKey: string = uncuedKey,
): number {
  const dimension = dimensionOf(
    spec,
    conditions.find((condition) => condition.key === controlKey),
  );
  return inTransaction(store, (): number => {
    const rows = readUncuedJobOutcomes(store, studyId, itemId, judgeId, controlKey);
    if (rows.some((row) => row.state !== 'done' && row.state !== 'failed')) return 0;
    if (hasMajority(store, studyId, itemId, judgeId, dimension)) return 0;
    const result = uncuedMajority(rows.map(verdictOf));
    insertMajority(store, {
      studyId,
      itemId,
      judgeId,
      dimension,
      majority: result.majority,
      meanScore: result.meanScore,
      validReps: result.valid,
      note: result.note,
    });
    if (effectiveDirection(spec) !== 'opposite') return 0;
    let direction: 'severity' | 'leniency' | null = null;
    if (result.majority) direction = result.majority === 'pass' ? 'severity' : 'leniency';
    else if (result.meanScore !== null)
      direction = result.meanScore >= 50 ? 'severity' : 'leniency';
    const ofDimension = conditions.filter(
      (condition) => dimensionOf(spec, condition) === dimension,
    );
    if (!direction) return 0;
    return queueCued(store, studyId, spec, ofDimension, itemId, judgeId, [direction]);
  });
}

function verdictOf(row: UncuedJobOutcome): {
  verdict: 'pass' | 'fail' | null;
  score: number | null;
} {
  const verdict = row.verdict;
  if (row.state !== 'done' || row.outcome !== 'verdict' || !verdict)
    return { verdict: null, score: null };
  if (verdict.kind === 'binary') return { verdict: verdict.outcome ?? null, score: null };
  if (verdict.kind === 'graded') return { verdict: null, score: verdict.score ?? null };
  return { verdict: null, score: null };
}
