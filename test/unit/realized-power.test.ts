/**
 * Power after a study (analysis/realized-power.ts): the ICC of the uncued reps against a
 * one-way ANOVA worked by hand, and the realized MDD of a paired comparison against the exact
 * McNemar power it promises.
 */
import { describe, expect, it } from 'vitest';
import { realizedPower, realizedPowerCell, uncuedRepIcc } from '../../src/main/engine/analysis';
import type { JudgeRepRow } from '../../src/main/engine/analysis';
import { mcnemarPower } from '../../src/shared/power';

function rep(itemId: string, rep: number, correct: boolean, condition = 'uncued'): JudgeRepRow {
  return {
    itemId,
    dataset: 'd',
    judge: 'j',
    condition,
    cueDirection: null,
    rep,
    verdict: correct ? 'pass' : 'fail',
    score: null,
    gold: 'pass',
    dimension: 'task_success',
    turns: null,
    simulated: false,
  };
}

describe('realized power', () => {
  it('estimates the uncued reps ICC as a one-way ANOVA worked by hand', () => {
    // Items (1,1), (0,0), (1,0): MSB = 1/2, MSW = 1/6, n0 = 2, ICC = (1/2 − 1/6)/(1/2 + 1/6) = 1/2.
    const rows = [
      rep('a', 0, true),
      rep('a', 1, true),
      rep('b', 0, false),
      rep('b', 1, false),
      rep('c', 0, true),
      rep('c', 1, false),
      // Cued reps do not enter.
      rep('c', 0, true, 'cued'),
    ];
    expect(uncuedRepIcc(rows)).toBeCloseTo(0.5, 12);
    // Reps that always agree: ICC 1; one item only: no estimate.
    expect(uncuedRepIcc(rows.slice(0, 4))).toBe(1);
    expect(uncuedRepIcc(rows.slice(0, 2))).toBeNull();
  });

  it('bounds a null result by the drop the exact McNemar test had 80% power to detect', () => {
    const bounded = realizedPower(150, 0.3, 0.4);
    expect(bounded.verdict).toBe('bounded');
    const drop = bounded.detectable as number;
    expect(mcnemarPower(150, 0.3, 0.3 - drop)).toBeGreaterThanOrEqual(0.8);
    expect(mcnemarPower(150, 0.3, 0.3 - drop + 0.01)).toBeLessThan(0.8);
    expect(realizedPowerCell(bounded)).toBe(`no change > ${(drop * 100).toFixed(1)} pp`);
    expect(realizedPowerCell(realizedPower(150, 0.3, 0.001))).toBe('detected');
    // Ten items at 10%: not even removing every harmful flip is detectable.
    expect(realizedPowerCell(realizedPower(10, 0.1, 1))).toBe('underpowered');
    expect(realizedPowerCell(realizedPower(0, null, null))).toBe('underpowered');
  });
});
