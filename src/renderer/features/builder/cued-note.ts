/**
 * What the estimate's "up to N cued" means for the draft's direction policy, worded after the
 * engine's rule (src/main/engine/runner/scheduling.ts, §3.1): under `opposite` an item gets cued
 * reps once its uncued majority is fixed; reps without a valid verdict (invalid_verdict,
 * budget_exhausted, failed) do not vote, and a tie or no valid rep leaves the item without cued
 * reps. A graded item has no majority: its uncued mean is the reference and the cue points down
 * from 50 up. Error attribution runs every cued rep as severity at once (App. B); a fixed policy
 * queues every cued rep at once.
 */
import type { DirectionPolicy } from '../../../shared/study-spec';

/** The note under the estimate's uncued + cued count. */
export function cuedRepsNote(direction: DirectionPolicy, dimension: string): string {
  if (direction === 'opposite' && dimension === 'error_attribution')
    return 'every cued rep runs as severity (App. B: no pass/fail majority to oppose)';
  if (direction !== 'opposite') return 'queued at once, no majority needed';
  return (
    'each item once its uncued majority is fixed; reps without a valid verdict do not vote, and ' +
    'an item whose valid uncued verdicts tie, or that has none, gets no cued reps (graded: the ' +
    'cue points down when the uncued mean is 50 or more)'
  );
}
