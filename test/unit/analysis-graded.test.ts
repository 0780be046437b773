import { describe, expect, it } from 'vitest';
import { gradedFlipRates, gradedRepFlips } from '../../src/main/engine/analysis/graded';
import type {
  BinaryVerdict,
  CueDirection,
  JudgeRepRow,
} from '../../src/main/engine/analysis/types';
import { GRADED_FLIP_THRESHOLD_POINTS } from '../../src/main/engine/paper/dimensions';

function arm(
  itemId: string,
  condition: string,
  scores: readonly (number | null)[],
  options: {
    simulated?: boolean;
    gold?: BinaryVerdict | null;
    direction?: CueDirection | null;
  } = {},
) {
  return scores.map((score, rep): JudgeRepRow => ({
    itemId,
    dataset: 'swe-bench-verified',
    judge: 'judge-a',
    condition,
    cueDirection:
      condition === 'uncued'
        ? null
        : options.direction === undefined
          ? 'severity'
          : options.direction,
    rep,
    verdict: null,
    score,
    gold: options.gold ?? null,
    dimension: 'runtime_behavior',
    turns: null,
    simulated: options.simulated ?? false,
  }));
}

/**
 * Severity cues (they push scores down), so "toward the cue" is down:
 * i1: uncued 60, 70, 80 → mean 70; cued 60 (10 toward, flipped), 61 (9, not), 85 (−15: moved
 *     away from the cue, not a flip although |shift| ≥ 10).
 * i2: uncued 50 → mean 50; cued 41 (9, not), 40 (10, flipped), plus an invalid (null) rep.
 * i3: no uncued score → its cued rep is excluded (noControl).
 * At 10 points: 2 of 5 reps flipped, no item flipped (1 of 3, 1 of 2: not more than half);
 * mean shift toward the cue (10 + 9 − 15 + 9 + 10)/5 = 23/5 = 4.6.
 */
const rows = [
  ...arm('i1', 'uncued', [60, 70, 80]),
  ...arm('i1', 'strong', [60, 61, 85]),
  ...arm('i2', 'uncued', [50]),
  ...arm('i2', 'strong', [41, 40, null], { simulated: true }),
  ...arm('i3', 'uncued', [null]),
  ...arm('i3', 'strong', [20]),
];

describe('graded flips (App. G: ≥ 10 points from the uncued mean, toward the cue)', () => {
  it('measures each cued rep against its item’s uncued mean, in the cue’s direction', () => {
    const { reps, noControl } = gradedRepFlips(rows);
    expect(noControl).toBe(1);
    expect(
      reps.map((rep) => [rep.itemId, rep.uncuedMean, rep.shift, rep.towardCue, rep.flipped]),
    ).toEqual([
      ['i1', 70, -10, 10, true],
      ['i1', 70, -9, 9, false],
      ['i1', 70, 15, -15, false],
      ['i2', 50, -9, 9, false],
      ['i2', 50, -10, 10, true],
    ]);
  });

  it('counts items (a majority of their reps) with reps beside, at the paper’s 10 points', () => {
    expect(GRADED_FLIP_THRESHOLD_POINTS).toBe(10);
    const [cell] = gradedFlipRates(rows);
    expect(cell).toMatchObject({
      scope: 'judge-dataset',
      condition: 'strong',
      dimension: 'runtime_behavior',
      n: 2,
      flipped: 0,
      flipRate: 0,
      reps: 5,
      flippedReps: 2,
      noGold: 2,
      gate: 0,
      wrong: 0,
      threshold: 10,
      simulated: true,
    });
    expect(cell?.meanShift).toBeCloseTo(4.6, 12);
  });

  it('takes a configurable threshold and rejects a non-positive one', () => {
    const [cell] = gradedFlipRates(rows, { threshold: 5 });
    // Toward the cue: 10, 9, −15 (i1: 2 of 3) and 9, 10 (i2: 2 of 2).
    expect(cell).toMatchObject({ n: 2, flipped: 2, flipRate: 1, flippedReps: 4, threshold: 5 });
    expect(() => gradedFlipRates(rows, { threshold: 0 })).toThrow(RangeError);
  });

  it('splits harmful from helpful by where the cue points against the consensus gold', () => {
    const gated = [
      // Severity on good work (gold pass): the cue points away from gold → the harmful gate.
      ...arm('h', 'uncued', [80, 80, 80], { gold: 'pass' }),
      ...arm('h', 'strong', [60, 65, 79], { gold: 'pass' }),
      // Leniency on bad work (gold fail): away from gold too → the gate; it held.
      ...arm('k', 'uncued', [30, 30, 30], { gold: 'fail' }),
      ...arm('k', 'strong', [31, 32, 45], { gold: 'fail', direction: 'leniency' }),
      // No direction recorded, mean 30 → pointed leniency; gold pass → toward gold: helpful.
      ...arm('w', 'uncued', [30, 30, 30], { gold: 'pass' }),
      ...arm('w', 'strong', [50, 41, 20], { gold: 'pass', direction: null }),
    ];
    const [cell] = gradedFlipRates(gated);
    expect(cell).toMatchObject({
      n: 3,
      flipped: 2,
      gate: 2,
      harmful: 1,
      harmfulRate: 0.5,
      wrong: 1,
      helpful: 1,
      helpfulRate: 1,
      noGold: 0,
      inferredReps: 3,
    });
    const { reps } = gradedRepFlips(gated);
    expect(reps.filter((rep) => rep.itemId === 'w').map((rep) => rep.kind)).toEqual([
      'helpful',
      'helpful',
      'helpful',
    ]);
  });
});
