/**
 * The power formula (src/shared/power.ts) against simulated studies under its own assumptions:
 * reps of an item agree through CueLab's shared-draw model (a rep copies its item's draw with
 * probability r, else draws on its own, so the ICC is r²), two arms, the clustered z-test at
 * α = 0.05. At the minimum detectable difference the share of studies that detect it must be
 * near 80%; ignoring the clustering must promise a difference the design cannot detect.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32, type Random } from '../../src/main/engine/random';
import {
  designEffect,
  itemsNeeded,
  minimumDetectableDifference,
  PAPER_UNCUED_ACCURACY,
  type PowerDesign,
  Z_TWO_SIDED_05,
} from '../../src/shared/power';

const REP_AGREEMENT = 0.8;

/** Flipped reps of `gated` items × `reps` at per-rep rate `rate` under the shared-draw model. */
function simulateArm(random: Random, gated: number, reps: number, rate: number): number {
  let flipped = 0;
  for (let item = 0; item < gated; item += 1) {
    const shared = random() < rate;
    for (let rep = 0; rep < reps; rep += 1) {
      const follows = random() < REP_AGREEMENT;
      if (follows ? shared : random() < rate) flipped += 1;
    }
  }
  return flipped;
}

/** Share of `studies` simulated studies whose clustered two-proportion z-test rejects. */
function empiricalPower(
  design: PowerDesign,
  difference: number,
  studies: number,
  seed: number,
  assumedIcc = design.icc,
): number {
  const random = mulberry32(seed);
  const gated = Math.round(design.items * design.uncuedAccuracy);
  const observations = gated * design.reps;
  const effect = designEffect(design.reps, assumedIcc);
  let rejected = 0;
  for (let study = 0; study < studies; study += 1) {
    const before = simulateArm(random, gated, design.reps, design.baseline) / observations;
    const after =
      simulateArm(random, gated, design.reps, design.baseline - difference) / observations;
    const pooled = (before + after) / 2;
    const standardError = Math.sqrt((2 * pooled * (1 - pooled) * effect) / observations);
    if (standardError > 0 && Math.abs(before - after) / standardError > Z_TWO_SIDED_05)
      rejected += 1;
  }
  return rejected / studies;
}

describe('power before launch', () => {
  const design: PowerDesign = {
    items: 200,
    reps: 3,
    baseline: 0.3,
    uncuedAccuracy: 0.75,
    icc: REP_AGREEMENT ** 2,
  };

  it('detects the minimum detectable difference in about 80% of simulated studies', () => {
    const difference = minimumDetectableDifference(design) as number;
    expect(difference).toBeGreaterThan(0.05);
    expect(difference).toBeLessThan(0.3);
    // 3,000 studies: the standard error of an 80% share is 0.0073; ±0.035 is nearly 5 of them.
    const power = empiricalPower(design, difference, 3000, 17);
    expect(power).toBeGreaterThan(0.765);
    expect(power).toBeLessThan(0.835);
  });

  it('without the design effect it promises a difference the design cannot detect', () => {
    const naive = minimumDetectableDifference({ ...design, icc: 0 }) as number;
    expect(naive).toBeLessThan(minimumDetectableDifference(design) as number);
    // Tested honestly (with the clustering the data have), that difference is found far less.
    expect(empiricalPower(design, naive, 2000, 18)).toBeLessThan(0.65);
  });

  it('the items it asks for reach 80% power for the named difference', () => {
    const items = itemsNeeded(design, 0.1);
    expect(items).toBeGreaterThan(design.items);
    const power = empiricalPower({ ...design, items }, 0.1, 2000, 19);
    expect(power).toBeGreaterThan(0.76);
    expect(power).toBeLessThan(0.85);
  });

  it('says when nothing is detectable, and refuses impossible designs', () => {
    expect(minimumDetectableDifference({ ...design, items: 2, reps: 1 })).toBeNull();
    expect(() => minimumDetectableDifference({ ...design, baseline: 0 })).toThrow(/baseline/);
    expect(() => minimumDetectableDifference({ ...design, reps: 1.5 })).toThrow(/reps/);
    expect(() => itemsNeeded(design, 0.9)).toThrow(/reachable/);
    expect(PAPER_UNCUED_ACCURACY).toBeCloseTo(0.734, 4);
  });
});
