import { describe, expect, it } from 'vitest';
import { percentileInterval, quantile } from '../../src/main/engine/analysis/bootstrap';
import { headroomClosed, trajectoryHeadroom } from '../../src/main/engine/analysis/headroom';
import type { JudgeRepRow } from '../../src/main/engine/analysis/types';
import { ceilingClosedPercent } from '../../src/main/engine/paper/protocol';

function arm(
  itemId: string,
  dataset: string,
  taxonomySize: number,
  condition: string,
  counts: readonly (number | null)[],
): JudgeRepRow[] {
  return counts.map((categoriesPresent, rep) => ({
    itemId,
    dataset,
    judge: 'sonnet',
    condition,
    cueDirection: condition === 'uncued' ? null : 'severity',
    rep,
    verdict: null,
    score: null,
    gold: 'fail',
    dimension: 'error_attribution',
    turns: null,
    simulated: false,
    categoriesPresent,
    taxonomySize,
  }));
}

/**
 * Dataset A (7 categories):
 *   t1: uncued 1, cued 4  → (4 − 1)/(7 − 1) = 50%
 *   t2: uncued 3, cued 7  → (7 − 3)/(7 − 3) = 100%
 *   t3: uncued 7          → no headroom (excluded)
 *   t4: no valid uncued   → incomplete (excluded)
 * Dataset B (9 categories):
 *   t5: uncued reps 0, 2, 1 (mean 1), cued reps 2, 3, 4 (mean 3) → (3 − 1)/(9 − 1) = 25%
 * Pooled per dataset: A = (50 + 100)/2 = 75, B = 25; averaged across datasets: (75 + 25)/2 = 50.
 */
const rows: JudgeRepRow[] = [
  ...arm('t1', 'A', 7, 'uncued', [1, 1, 1]),
  ...arm('t1', 'A', 7, 'expert', [4, 4, 4]),
  ...arm('t2', 'A', 7, 'uncued', [3, 3, 3]),
  ...arm('t2', 'A', 7, 'expert', [7, 7, 7]),
  ...arm('t3', 'A', 7, 'uncued', [7, 7, 7]),
  ...arm('t3', 'A', 7, 'expert', [7, 7, 7]),
  ...arm('t4', 'A', 7, 'uncued', [null, null, null]),
  ...arm('t4', 'A', 7, 'expert', [5, 5, 5]),
  ...arm('t5', 'B', 9, 'uncued', [0, 2, 1]),
  ...arm('t5', 'B', 9, 'expert', [2, 3, 4]),
];

describe('% of headroom closed (§3.2, App. B)', () => {
  it('matches §3.2’s worked example: 2 of 12 uncued, 8 cued → 6 of 10 slots = 60%', () => {
    const example = [...arm('x', 'A', 12, 'uncued', [2]), ...arm('x', 'A', 12, 'expert', [8])];
    const [trajectory] = trajectoryHeadroom(example);
    expect(trajectory?.percentOfCeiling).toBeCloseTo(60, 12);
    expect(trajectory?.percentOfCeiling).toBe(ceilingClosedPercent(8, 2, 12));
  });

  it('computes per trajectory, pools per dataset and averages datasets unweighted', () => {
    const trajectories = trajectoryHeadroom(rows);
    expect(trajectories.map((entry) => [entry.itemId, entry.status])).toEqual([
      ['t1', 'ok'],
      ['t2', 'ok'],
      ['t3', 'no-headroom'],
      ['t4', 'incomplete'],
      ['t5', 'ok'],
    ]);
    expect(trajectories[4]).toMatchObject({
      uncuedPresent: 1,
      cuedPresent: 3,
      percentOfCeiling: 25,
    });
    const summary = headroomClosed(rows, { resamples: 1000 });
    expect(summary.map((row) => [row.scope, row.dataset, row.n, row.percentOfCeiling])).toEqual([
      ['dataset', 'A', 2, 75],
      ['dataset', 'B', 1, 25],
      ['across-datasets', null, 3, 50],
    ]);
    expect(summary[0]?.excluded).toEqual({ incomplete: 1, noHeadroom: 1 });
    expect(summary[2]).toMatchObject({
      resamples: 1000,
      seed: 17,
      confidence: 0.95,
      simulated: false,
    });
  });

  it('the bootstrap is deterministic under a seed and its CI contains the point estimate', () => {
    const first = headroomClosed(rows, { seed: 17, resamples: 2000 });
    const again = headroomClosed(rows, { seed: 17, resamples: 2000 });
    expect(again).toEqual(first);
    for (const row of first) {
      expect(row.ci).not.toBeNull();
      expect(row.ci?.low).toBeLessThanOrEqual(row.percentOfCeiling ?? NaN);
      expect(row.ci?.high).toBeGreaterThanOrEqual(row.percentOfCeiling ?? NaN);
    }
    // A = resamples of {50, 100}: within [50, 100]; B has one trajectory: [25, 25].
    expect(first[0]?.ci?.low).toBeGreaterThanOrEqual(50);
    expect(first[0]?.ci?.high).toBeLessThanOrEqual(100);
    expect(first[1]?.ci).toEqual({ low: 25, high: 25 });
    const otherSeed = headroomClosed(rows, { seed: 18, resamples: 2000 });
    expect(otherSeed[2]?.percentOfCeiling).toBe(50);
  });

  it('CI narrows around a larger sample and refuses fewer than 1,000 resamples', () => {
    const many = Array.from({ length: 60 }, (_, index) => [
      ...arm(`m${index}`, 'A', 7, 'uncued', [1]),
      ...arm(`m${index}`, 'A', 7, 'expert', [index % 2 === 0 ? 4 : 7]),
    ]).flat();
    // Half 50%, half 100%: mean 75, bootstrap SE ≈ 25/√60 ≈ 3.2, so the 95% CI is about 75 ± 6.3.
    const [row] = headroomClosed(many, { resamples: 4000 });
    expect(row?.percentOfCeiling).toBe(75);
    expect(row?.ci?.low).toBeGreaterThan(66);
    expect(row?.ci?.high).toBeLessThan(84);
    expect(() => headroomClosed(rows, { resamples: 999 })).toThrow(RangeError);
  });

  it('percentile interval uses linear interpolation (R type 7)', () => {
    // 0..100 step 1: the 2.5% quantile sits at position 2.5 → 2.5; 97.5% at 97.5.
    const values = Array.from({ length: 101 }, (_, index) => index);
    const interval = percentileInterval(values, 0.95);
    expect(interval.low).toBeCloseTo(2.5, 12);
    expect(interval.high).toBeCloseTo(97.5, 12);
    expect(quantile([1, 3], 0.5)).toBe(2);
  });

  it('conflicting taxonomy sizes on one trajectory are an input error', () => {
    const bad = [...arm('x', 'A', 7, 'uncued', [1]), ...arm('x', 'A', 9, 'expert', [2])];
    expect(() => trajectoryHeadroom(bad)).toThrow(/taxonomy sizes/);
  });
});
