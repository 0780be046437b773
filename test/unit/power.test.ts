/**
 * The power calculation (src/shared/power.ts) against simulated studies of its design, tested
 * by the test the tables run: reps of an item agree through CueLab's shared-draw model (a rep
 * copies its item's draw with probability √ICC, else draws its own), each arm's item verdict is
 * the majority of its reps, and the arms are compared by the analysis's own exact McNemar
 * (paired) or Fisher (unpaired) at α = 0.05. A difference equal to the printed MDD must be
 * detected in 75–85% of 2,000 studies; the exact power must equal a brute-force enumeration.
 */
import { describe, expect, it } from 'vitest';
import { mcnemarExact } from '../../src/main/engine/analysis/mcnemar';
import { fisherExact } from '../../src/main/engine/analysis/proportion-difference';
import { mulberry32, type Random } from '../../src/main/engine/random';
import {
  comparedRate,
  itemsNeeded,
  majorityRate,
  mcnemarPower,
  minimumDetectableDifference,
  PAPER_UNCUED_ACCURACY,
  perRepRate,
  type PowerDesign,
} from '../../src/shared/power';

/** One item's majority verdict in one arm: flipped when more than half its reps flip. */
function itemFlips(random: Random, reps: number, perRep: number, follow: number): boolean {
  const shared = random() < perRep;
  let flipped = 0;
  for (let rep = 0; rep < reps; rep += 1)
    if (random() < follow ? shared : random() < perRep) flipped += 1;
  return flipped * 2 > reps;
}

/** Share of simulated studies in which the named test rejects at α = 0.05. */
function detected(design: PowerDesign, difference: number, studies: number, seed: number) {
  const random = mulberry32(seed);
  const follow = Math.sqrt(design.icc);
  const other = comparedRate(design.baseline, difference);
  const before = perRepRate(design.baseline, design.icc, design.reps);
  const after = perRepRate(other, design.icc, design.reps);
  let rejected = 0;
  for (let study = 0; study < studies; study += 1) {
    // The gate is drawn per item, as a reviewer would, not fixed at its expectation.
    let gated = 0;
    for (let item = 0; item < design.items; item += 1)
      if (random() < design.uncuedAccuracy) gated += 1;
    let b = 0;
    let c = 0;
    let flipsBefore = 0;
    let flipsAfter = 0;
    for (let item = 0; item < gated; item += 1) {
      const first = itemFlips(random, design.reps, before, follow);
      const second = itemFlips(random, design.reps, after, follow);
      if (first && !second) b += 1;
      if (second && !first) c += 1;
      if (first) flipsBefore += 1;
      if (second) flipsAfter += 1;
    }
    const p =
      design.test === 'Fisher exact'
        ? fisherExact(
            { successes: flipsBefore, trials: gated },
            { successes: flipsAfter, trials: gated },
          )
        : mcnemarExact(b, c).pValue;
    if (p < 0.05) rejected += 1;
  }
  return rejected / studies;
}

describe('power for the test the tables run', () => {
  const designs: PowerDesign[] = [
    { items: 200, reps: 3, baseline: 0.3, uncuedAccuracy: 0.75, icc: 0.64, test: 'exact McNemar' },
    {
      items: 120,
      reps: 1,
      baseline: 0.2,
      uncuedAccuracy: PAPER_UNCUED_ACCURACY,
      icc: 0.64,
      test: 'exact McNemar',
    },
    { items: 300, reps: 3, baseline: 0.15, uncuedAccuracy: 0.7, icc: 0.3, test: 'exact McNemar' },
    { items: 150, reps: 3, baseline: 0.25, uncuedAccuracy: 0.75, icc: 0.64, test: 'Fisher exact' },
  ];

  it.each(designs)(
    'a difference equal to the MDD is detected 75–85% of the time ($items items, $reps reps, $test)',
    (design) => {
      const difference = minimumDetectableDifference(design) as number;
      expect(difference).toBeGreaterThan(0.03);
      expect(difference).toBeLessThan(0.35);
      // 2,000 studies: the Monte-Carlo error of an 80% share is 0.009.
      const power = detected(design, difference, 2000, 17);
      expect(power).toBeGreaterThanOrEqual(0.75);
      expect(power).toBeLessThanOrEqual(0.85);
    },
  );

  it('the exact power equals a brute-force enumeration of every item outcome', () => {
    const gated = 7;
    const before = 0.4;
    const after = 0.1;
    // Each item is one of four (flip before?, flip after?); enumerate all 4^7 studies.
    let power = 0;
    for (let code = 0; code < 4 ** gated; code += 1) {
      let probability = 1;
      let b = 0;
      let c = 0;
      for (let item = 0, rest = code; item < gated; item += 1, rest = Math.floor(rest / 4)) {
        const first = rest % 2 === 1;
        const second = Math.floor(rest / 2) % 2 === 1;
        probability *= (first ? before : 1 - before) * (second ? after : 1 - after);
        if (first && !second) b += 1;
        if (second && !first) c += 1;
      }
      if (mcnemarExact(b, c).pValue < 0.05) power += probability;
    }
    expect(mcnemarPower(gated, before, after)).toBeCloseTo(power, 12);
  });

  it('the items it asks for reach 80% power for the named difference', () => {
    const design = designs[0] as PowerDesign;
    const items = itemsNeeded(design, 0.1);
    expect(items).toBeGreaterThan(design.items);
    const power = detected({ ...design, items }, 0.1, 2000, 19);
    expect(power).toBeGreaterThanOrEqual(0.77);
    expect(power).toBeLessThanOrEqual(0.85);
  });

  it('per-rep rates reproduce the item-level rate after the vote', () => {
    for (const reps of [1, 2, 3, 5])
      expect(majorityRate(perRepRate(0.2, 0.64, reps), 0.64, reps)).toBeCloseTo(0.2, 9);
    // Three reps at ICC 0 (independent): 3f² − 2f³, item-calibration.ts's m(f).
    expect(majorityRate(0.3, 0, 3)).toBeCloseTo(3 * 0.09 - 2 * 0.027, 12);
  });

  it('says when nothing is detectable, and refuses impossible designs', () => {
    const design = designs[0] as PowerDesign;
    expect(minimumDetectableDifference({ ...design, items: 4, reps: 1 })).toBeNull();
    expect(() => minimumDetectableDifference({ ...design, baseline: 0 })).toThrow(/baseline/);
    expect(() => minimumDetectableDifference({ ...design, reps: 1.5 })).toThrow(/reps/);
    expect(() => itemsNeeded(design, 0.9)).toThrow(/reachable/);
    expect(PAPER_UNCUED_ACCURACY).toBeCloseTo(0.734, 4);
  });
});
