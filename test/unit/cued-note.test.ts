/**
 * The builder's note on which items get cued reps says what the engine does (§3.1 paired
 * scheduling, runner/scheduling.ts): each case the note names is checked against the engine's
 * own majority rule and direction policy.
 */
import { describe, expect, it } from 'vitest';
import { effectiveDirection, uncuedMajority } from '../../src/main/engine/runner/scheduling';
import { cuedRepsNote } from '../../src/renderer/features/builder/cued-note';
import { studySpecSchema } from '../../src/shared/study-spec';

const binary = (verdict: 'pass' | 'fail' | null) => ({ verdict, score: null });

describe('the note on cued reps matches the engine’s rule', () => {
  const note = cuedRepsNote('opposite', 'task_success');

  it('a tie leaves the item without cued reps', () => {
    expect(uncuedMajority([binary('pass'), binary('fail')]).majority).toBeNull();
    expect(note).toContain('tie');
  });

  it('reps without a valid verdict do not vote; none valid leaves no cued reps', () => {
    expect(uncuedMajority([binary('pass'), binary(null), binary(null)]).majority).toBe('pass');
    expect(uncuedMajority([binary(null), binary(null), binary(null)]).majority).toBeNull();
    // One pass, one fail, one invalid: a tie, not a majority of the three.
    expect(uncuedMajority([binary('pass'), binary('fail'), binary(null)]).majority).toBeNull();
    expect(note).toContain('reps without a valid verdict do not vote');
    expect(note).toContain('or that has none, gets no cued reps');
  });

  it('a graded item is pointed by its uncued mean, never dropped for a tie', () => {
    const graded = uncuedMajority([
      { verdict: null, score: 40 },
      { verdict: null, score: 60 },
    ]);
    expect(graded).toMatchObject({ majority: null, meanScore: 50, note: null });
    expect(note).toContain('cue points down when the uncued mean is 50 or more');
  });

  it('says when no majority is needed: error attribution and fixed policies', () => {
    const spec = (dimension: string, direction: string) =>
      studySpecSchema.parse({
        ...{ name: 'n', suite: 's', dimension, direction },
        judges: [{ id: 'j', provider: 'synthetic', model: 'm', persona: 'robust-frontier' }],
      });
    expect(effectiveDirection(spec('error_attribution', 'opposite'))).toBe('severity');
    expect(cuedRepsNote('opposite', 'error_attribution')).toContain('severity');
    for (const direction of ['severity', 'leniency', 'both'] as const) {
      expect(effectiveDirection(spec('task_success', direction))).toBe(direction);
      expect(cuedRepsNote(direction, 'task_success')).toContain('at once');
    }
  });
});
