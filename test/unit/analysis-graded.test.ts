import { describe, expect, it } from 'vitest';
import { gradedFlipRates, gradedRepFlips } from '../../src/main/engine/analysis/graded';
import type { JudgeRepRow } from '../../src/main/engine/analysis/types';
import { GRADED_FLIP_THRESHOLD_POINTS } from '../../src/main/engine/paper/dimensions';

function arm(
  itemId: string,
  condition: string,
  scores: readonly (number | null)[],
  simulated = false,
) {
  return scores.map((score, rep): JudgeRepRow => ({
    itemId,
    dataset: 'swe-bench-verified',
    judge: 'judge-a',
    condition,
    cueDirection: condition === 'uncued' ? null : 'severity',
    rep,
    verdict: null,
    score,
    gold: null,
    dimension: 'runtime_behavior',
    turns: null,
    simulated,
  }));
}

/**
 * i1: uncued 60, 70, 80 → mean 70; cued 60 (−10, flipped), 61 (−9, not), 85 (+15, flipped).
 * i2: uncued 50 → mean 50; cued 41 (−9, not), 40 (−10, flipped), plus an invalid (null) rep.
 * i3: no uncued score → its cued rep is excluded (noControl).
 * At 10 points: 3 of 5 reps flipped; mean shift (−10 − 9 + 15 − 9 − 10)/5 = −23/5 = −4.6.
 * At 5 points every one of the 5 moves far enough.
 */
const rows = [
  ...arm('i1', 'uncued', [60, 70, 80]),
  ...arm('i1', 'strong', [60, 61, 85]),
  ...arm('i2', 'uncued', [50]),
  ...arm('i2', 'strong', [41, 40, null], true),
  ...arm('i3', 'uncued', [null]),
  ...arm('i3', 'strong', [20]),
];

describe('graded flips (App. G: ≥ 10 points from the uncued mean)', () => {
  it('measures each cued rep against its item’s uncued mean', () => {
    const { reps, noControl } = gradedRepFlips(rows);
    expect(noControl).toBe(1);
    expect(reps.map((rep) => [rep.itemId, rep.uncuedMean, rep.shift, rep.flipped])).toEqual([
      ['i1', 70, -10, true],
      ['i1', 70, -9, false],
      ['i1', 70, 15, true],
      ['i2', 50, -9, false],
      ['i2', 50, -10, true],
    ]);
  });

  it('pools reps (not majorities) with the paper’s 10-point default', () => {
    expect(GRADED_FLIP_THRESHOLD_POINTS).toBe(10);
    const [cell] = gradedFlipRates(rows);
    expect(cell).toMatchObject({
      scope: 'judge-dataset',
      condition: 'strong',
      dimension: 'runtime_behavior',
      n: 5,
      flipped: 3,
      flipRate: 0.6,
      threshold: 10,
      simulated: true,
    });
    expect(cell?.meanShift).toBeCloseTo(-4.6, 12);
  });

  it('takes a configurable threshold and rejects a non-positive one', () => {
    const [cell] = gradedFlipRates(rows, { threshold: 5 });
    expect(cell).toMatchObject({ n: 5, flipped: 5, flipRate: 1, threshold: 5 });
    expect(() => gradedFlipRates(rows, { threshold: 0 })).toThrow(RangeError);
  });
});
