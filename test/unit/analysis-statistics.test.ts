/**
 * The statistics beyond the paper's tables, each against a worked example: Holm's adjustment on a
 * hand-worked vector, Newcombe's paired-difference interval (method 10) on Newcombe 1998's
 * published example, and the item-clustered bootstrap on data whose answer is known.
 */
import { describe, expect, it } from 'vitest';
import { binomialDraw, logFactorial } from '../../src/main/engine/analysis/binomial-draw';
import { resolveBootstrap } from '../../src/main/engine/analysis/bootstrap';
import { mulberry32, seededRandom } from '../../src/main/engine/random';
import { clusteredRate } from '../../src/main/engine/analysis/cluster-bootstrap';
import { pairItems, type PairedItem } from '../../src/main/engine/analysis/pairs';
import { repLevelRates, repRateKey } from '../../src/main/engine/analysis/rep-rates';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import {
  benjaminiHochbergAdjust,
  benjaminiHochbergWithin,
  holmAdjust,
  holmAdjustWithin,
} from '../../src/main/engine/analysis/multiplicity';
import { isPlaceboArm } from '../../src/main/engine/analysis/placebo';
import { newcombePairedDifference } from '../../src/main/engine/analysis/paired-difference';
import { wilsonAtEffectiveSize, wilsonInterval } from '../../src/main/engine/analysis/wilson';

describe('holmAdjust', () => {
  it('a hand-worked vector: 0.01, 0.04, 0.03, 0.005', () => {
    // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max so far 0.06.
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted[0]).toBeCloseTo(0.03, 12);
    expect(adjusted[1]).toBeCloseTo(0.06, 12);
    expect(adjusted[2]).toBeCloseTo(0.06, 12);
    expect(adjusted[3]).toBeCloseTo(0.02, 12);
  });

  it('caps at 1, leaves nulls out of the family and keeps them null', () => {
    expect(holmAdjust([0.5, null, 0.4])).toEqual([0.8, null, 0.8]);
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('rejects a value that is not a p-value', () => {
    expect(() => holmAdjust([0.2, 1.5])).toThrow(/\[0, 1\]/);
    expect(() => holmAdjust([Number.NaN])).toThrow(/p-value/);
  });

  it('adjusts each family on its own', () => {
    const entries = [
      { family: 'a', p: 0.01 },
      { family: 'b', p: 0.01 },
      { family: 'a', p: 0.02 },
    ];
    const adjusted = holmAdjustWithin(
      entries,
      (entry) => entry.p,
      (entry) => entry.family,
    );
    expect(adjusted[0]).toBeCloseTo(0.02, 12);
    expect(adjusted[1]).toBeCloseTo(0.01, 12);
    expect(adjusted[2]).toBeCloseTo(0.02, 12);
  });
});

describe('benjaminiHochbergAdjust (Benjamini & Hochberg 1995)', () => {
  it('a hand-worked vector: 0.01, 0.04, 0.03, 0.005 → 0.02, 0.04, 0.04, 0.02', () => {
    // Sorted 0.005, 0.01, 0.03, 0.04; m·p/j = 0.02, 0.02, 0.04, 0.04; running minimum from the top.
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") gives the same.
    const adjusted = benjaminiHochbergAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.02, 0.04, 0.04, 0.02].forEach((value, index) =>
      expect(adjusted[index]).toBeCloseTo(value, 12),
    );
    // Never above Holm's, which controls the stronger family-wise error.
    const holm = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    adjusted.forEach((value, index) => expect(value).toBeLessThanOrEqual(holm[index] ?? 1));
  });

  it('a step-up: a later small p pulls earlier ones down; nulls stay out; families apart', () => {
    // 0.04 and 0.045 alone would not pass at 0.05 after ×2, but as the two largest of two
    // p-values both below 0.05 they are both 0.045.
    expect(benjaminiHochbergAdjust([0.04, 0.045])).toEqual([0.045, 0.045]);
    expect(benjaminiHochbergAdjust([null, 0.5, 1])).toEqual([null, 1, 1]);
    expect(() => benjaminiHochbergAdjust([1.5])).toThrow(/p-value/);
    const entries = [
      { family: 'a', p: 0.01 },
      { family: 'b', p: 0.01 },
      { family: 'a', p: 0.04 },
    ];
    expect(
      benjaminiHochbergWithin(
        entries,
        (entry) => entry.p,
        (entry) => entry.family,
      ),
    ).toEqual([0.02, 0.01, 0.04]);
  });
});

describe('isPlaceboArm', () => {
  it('a preset, imported or composed placebo cue is a placebo arm', () => {
    expect(isPlaceboArm({ cueLabel: 'preset:placebo' })).toBe(true);
    expect(isPlaceboArm({ cueLabel: 'placebo' })).toBe(true);
    expect(isPlaceboArm({ cueLabel: 'axes:strength=placebo' })).toBe(true);
    expect(isPlaceboArm({ cueLabel: 'axes:source=reviewer,strength=placebo' })).toBe(true);
    expect(isPlaceboArm({ cueLabel: 'axes:strength=strong' })).toBe(false);
    expect(isPlaceboArm({ cueLabel: 'custom:placebo' })).toBe(false);
  });
});

describe('newcombePairedDifference (Newcombe 1998, method 10)', () => {
  it('Newcombe 1998 Table II example (a): 36, 12, 2, 0 → 0.2 [0.0569, 0.3404]', () => {
    const result = newcombePairedDifference({ both: 36, firstOnly: 12, secondOnly: 2, neither: 0 });
    expect(result?.difference).toBeCloseTo(0.2, 12);
    expect(result?.interval.low).toBeCloseTo(0.0569, 4);
    expect(result?.interval.high).toBeCloseTo(0.3404, 4);
  });

  it('ad − bc below n/2 counts as no correlation: 1, 1, 7, 12', () => {
    // Hand-computed: p1 = 2/21, p2 = 8/21, ad − bc = 5 < n/2 = 10.5, so φ = 0;
    // the interval is Wilson-square-and-add: −0.2857 [−0.5069, −0.0256].
    const result = newcombePairedDifference({ both: 1, firstOnly: 1, secondOnly: 7, neither: 12 });
    expect(result?.difference).toBeCloseTo(-6 / 21, 12);
    expect(result?.interval.low).toBeCloseTo(-0.5069, 4);
    expect(result?.interval.high).toBeCloseTo(-0.0256, 4);
  });

  it('no discordant pairs: a symmetric interval around 0 that is narrower with correlation', () => {
    const correlated = newcombePairedDifference({
      both: 10,
      firstOnly: 0,
      secondOnly: 0,
      neither: 10,
    });
    expect(correlated?.difference).toBe(0);
    expect(correlated?.interval.low).toBeCloseTo(-0.0898, 4);
    expect(correlated?.interval.high).toBeCloseTo(0.0898, 4);
    // At 0 / 10 both ways each side takes only one Wilson arm (the other is 0): ±0.2775.
    const flat = newcombePairedDifference({ both: 0, firstOnly: 0, secondOnly: 0, neither: 10 });
    const wilson = wilsonInterval(0, 10);
    expect(flat?.interval.high).toBeCloseTo(wilson?.high ?? 0, 12);
    expect(flat?.interval.low).toBeCloseTo(-(wilson?.high ?? 0), 12);
  });

  it('nothing to compare gives null; bad counts are refused', () => {
    expect(
      newcombePairedDifference({ both: 0, firstOnly: 0, secondOnly: 0, neither: 0 }),
    ).toBeNull();
    expect(() =>
      newcombePairedDifference({ both: -1, firstOnly: 0, secondOnly: 0, neither: 0 }),
    ).toThrow(/non-negative/);
  });
});

describe('clusteredRate (item-clustered bootstrap, Miller 2024)', () => {
  const settings = resolveBootstrap();

  it('reps of an item move together: wider than a Wilson interval over reps', () => {
    // 20 items of 3 reps: 10 flipped in every rep, 10 in none. Rate 0.5; as items the sample is
    // 20 coin flips (normal half-width 1.96·√(0.25/20) ≈ 0.219), not 60.
    const clusters = Array.from({ length: 20 }, (_, index) => ({
      events: index < 10 ? 3 : 0,
      reps: 3,
    }));
    const result = clusteredRate(clusters, settings, ['test']);
    expect(result).toMatchObject({ items: 20, reps: 60, events: 30, rate: 0.5 });
    const halfWidth = ((result?.interval.high ?? 0) - (result?.interval.low ?? 0)) / 2;
    expect(halfWidth).toBeGreaterThan(0.18);
    expect(halfWidth).toBeLessThan(0.25);
    const overReps = wilsonInterval(30, 60);
    expect(halfWidth).toBeGreaterThan(1.5 * (((overReps?.high ?? 0) - (overReps?.low ?? 0)) / 2));
  });

  it('is deterministic for a seed, differs for another, and is degenerate on identical items', () => {
    const clusters = Array.from({ length: 23 }, (_, index) => ({
      events: (index * 7) % 4,
      reps: 3 + (index % 3),
    }));
    const once = clusteredRate(clusters, settings, ['x']);
    expect(clusteredRate(clusters, settings, ['x'])).toEqual(once);
    expect(clusteredRate(clusters, { ...settings, seed: 18 }, ['x'])?.interval).not.toEqual(
      once?.interval,
    );
    const events = clusters.reduce((sum, cluster) => sum + cluster.events, 0);
    const reps = clusters.reduce((sum, cluster) => sum + cluster.reps, 0);
    expect(once?.rate).toBeCloseTo(events / reps, 12);
    // Identical items leave the bootstrap no spread; the Wilson floor at the effective size (two
    // items agreeing within no more than chance: ICC 0, six reps) keeps a real interval.
    const same = clusteredRate(
      [
        { events: 1, reps: 3 },
        { events: 1, reps: 3 },
      ],
      settings,
      ['y'],
    );
    const floor = wilsonAtEffectiveSize(1 / 3, 6);
    expect(same?.interval.low).toBeCloseTo(floor?.low ?? NaN, 12);
    expect(same?.interval.high).toBeCloseTo(floor?.high ?? NaN, 12);
    expect(same?.fewItems).toBe(true);
  });

  it('never has zero width: one item, no events, every event', () => {
    for (const clusters of [
      [{ events: 1, reps: 3 }],
      Array.from({ length: 30 }, () => ({ events: 0, reps: 3 })),
      Array.from({ length: 30 }, () => ({ events: 3, reps: 3 })),
    ]) {
      const result = clusteredRate(clusters, settings, ['w']);
      expect((result?.interval.high ?? 0) - (result?.interval.low ?? 0)).toBeGreaterThan(0.05);
      expect(result?.interval.low).toBeGreaterThanOrEqual(0);
      expect(result?.interval.high).toBeLessThanOrEqual(1);
    }
    // 30 agreeing items with no event: the effective size is the item count, Wilson's 0/30.
    const none = clusteredRate(
      Array.from({ length: 30 }, () => ({ events: 0, reps: 3 })),
      settings,
      ['v'],
    );
    expect(none?.effectiveSize).toBe(30);
    expect(none?.interval.high).toBeCloseTo(wilsonInterval(0, 30)?.high ?? NaN, 12);
    expect(none?.fewItems).toBe(false);
  });

  it('keeps its coverage at 10 items and a 3% rate (a bare percentile bootstrap covers ~0.5)', () => {
    // Reps follow their item's shared draw with probability 0.8 (ICC 0.64), else draw their own.
    const random = mulberry32(5);
    const truth = 0.03;
    let covered = 0;
    const studies = 400;
    for (let study = 0; study < studies; study += 1) {
      const clusters = Array.from({ length: 10 }, () => {
        const shared = random() < truth;
        let events = 0;
        for (let rep = 0; rep < 3; rep += 1)
          if (random() < 0.8 ? shared : random() < truth) events += 1;
        return { events, reps: 3 };
      });
      const result = clusteredRate(clusters, { ...settings, resamples: 1000 }, [`c${study}`]);
      if (result && result.interval.low <= truth && truth <= result.interval.high) covered += 1;
    }
    expect(covered / studies).toBeGreaterThanOrEqual(0.9);
  });

  it('null without reps; refuses more events than reps', () => {
    expect(clusteredRate([{ events: 0, reps: 0 }], settings, ['z'])).toBeNull();
    expect(() => clusteredRate([{ events: 4, reps: 3 }], settings, ['z'])).toThrow(/4 events/);
  });
});

describe('repLevelRates (rows counted by kind, carried batch to batch)', () => {
  const settings = resolveBootstrap();

  /** Gated items (uncued all PASS, gold PASS); item i's cued arm has `cuedReps(i)` reps. */
  function rowsOf(items: number, cuedReps: (item: number) => number): JudgeRepRow[] {
    const rows: JudgeRepRow[] = [];
    const rep = (itemId: string, condition: string, index: number, verdict: BinaryVerdict) => ({
      itemId,
      condition,
      rep: index + 1,
      verdict,
      gold: 'pass' as const,
      dataset: 'ds',
      judge: 'j',
      score: null,
      dimension: 'task_success',
      turns: 3,
      cueDirection: condition === 'uncued' ? null : ('severity' as const),
      simulated: false,
    });
    for (let item = 0; item < items; item += 1) {
      const id = `i${item}`;
      for (let index = 0; index < 3; index += 1) rows.push(rep(id, 'uncued', index, 'pass'));
      for (let index = 0; index < cuedReps(item); index += 1)
        rows.push(rep(id, 'strong', index, (item + index) % 3 === 0 ? 'pass' : 'fail'));
    }
    return rows;
  }

  /** The rates drawn from every gated item's cluster, as the table drew them before kinds. */
  function fromItems(pairs: readonly PairedItem[]) {
    const clusters = pairs
      .filter((pair) => pair.status === 'gated')
      .map((pair) => {
        const valid = pair.cuedReps.filter((rep) => rep.verdict !== null);
        return {
          events: valid.filter((rep) => rep.verdict !== pair.gold).length,
          reps: valid.length,
        };
      });
    const where = { condition: 'strong', dimension: 'task_success' };
    return new Map(
      (
        [
          { ...where, scope: 'judge-dataset', judge: 'j', dataset: 'ds' },
          { ...where, scope: 'judge', judge: 'j', dataset: null },
          { ...where, scope: 'all', judge: null, dataset: null },
        ] as const
      ).map((row) => {
        const key = repRateKey(row);
        return [
          key,
          { harmful: clusteredRate(clusters, settings, [key, 'harmful']), helpful: null },
        ];
      }),
    );
  }

  it('gives the rates drawn from every item, with up to 8 reps an item and with more', () => {
    const upToEight = pairItems(rowsOf(40, (item) => 1 + (item % 8)));
    expect(upToEight.filter((pair) => pair.status === 'gated').length).toBeGreaterThan(20);
    expect(repLevelRates(upToEight)).toEqual(fromItems(upToEight));
    // An item with 10 cued reps is beyond the kinds counted: its rows come from every item.
    const withTen = pairItems(rowsOf(40, (item) => (item === 7 ? 10 : 3)));
    expect(withTen.some((pair) => pair.status === 'gated' && pair.cuedReps.length === 10)).toBe(
      true,
    );
    expect(repLevelRates(withTen)).toEqual(fromItems(withTen));
  });
});
describe('binomialDraw (exact inversion from the mode)', () => {
  it('ln k! is continuous where the table hands over to Stirling', () => {
    let sum = 0;
    for (let k = 1; k <= 300; k += 1) sum += Math.log(k);
    expect(logFactorial(300)).toBeCloseTo(sum, 9);
    expect(logFactorial(5)).toBeCloseTo(Math.log(120), 12);
  });

  it('has the binomial mean and variance, for large and small trials', () => {
    const random = seededRandom(17, 'binomial-test');
    for (const [trials, probability] of [
      [1000, 0.3],
      [3, 0.5],
      [40, 0.02],
    ] as const) {
      const draws = Array.from({ length: 20000 }, () => binomialDraw(trials, probability, random));
      const mean = draws.reduce((sum, value) => sum + value, 0) / draws.length;
      const variance = draws.reduce((sum, value) => sum + (value - mean) ** 2, 0) / draws.length;
      const expectedVariance = trials * probability * (1 - probability);
      // Standard error of the mean is √(var / 20000): four of them is a wide margin.
      expect(Math.abs(mean - trials * probability)).toBeLessThan(
        4 * Math.sqrt(expectedVariance / draws.length),
      );
      expect(variance / expectedVariance).toBeGreaterThan(0.95);
      expect(variance / expectedVariance).toBeLessThan(1.05);
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...draws)).toBeLessThanOrEqual(trials);
    }
    expect(binomialDraw(10, 0, random)).toBe(0);
    expect(binomialDraw(10, 1, random)).toBe(10);
  });
});
