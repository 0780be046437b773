import { describe, expect, it } from 'vitest';
import {
  harmfulFlipsByEffort,
  pearsonCorrelation,
  plottedBins,
} from '../../src/main/engine/analysis/effort';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { EFFORT_MIN_REPS_PER_BIN, TABLE_9 } from '../../src/main/engine/paper/numbers-appendix';

/** An item with an uncued arm of three `uncued` reps and one cued rep per (verdict, turns). */
function item(
  itemId: string,
  gold: BinaryVerdict,
  uncued: BinaryVerdict,
  cued: readonly (readonly [BinaryVerdict | null, number | null])[],
  judge = 'judge-a',
): JudgeRepRow[] {
  const base = {
    itemId,
    dataset: 'ds',
    judge,
    score: null,
    gold,
    dimension: 'task_success',
    simulated: false,
  };
  return [
    ...[0, 1, 2].map((rep) => ({
      ...base,
      rep,
      condition: 'uncued',
      cueDirection: null,
      verdict: uncued,
      turns: 9,
    })),
    ...cued.map(([verdict, turns], rep) => ({
      ...base,
      rep,
      condition: 'strong',
      cueDirection: uncued === 'pass' ? ('severity' as const) : ('leniency' as const),
      verdict,
      turns,
    })),
  ];
}

describe('App. L bins', () => {
  it('uses 1–3, 4–6, 7–10, 11–15, 16–25 with 26+ merged into the last marker', () => {
    const bins = plottedBins();
    expect(bins.map((bin) => bin.label)).toEqual(['1–3', '4–6', '7–10', '11–15', '16–25']);
    expect(bins.at(-1)).toEqual({ label: '16–25', low: 16, high: null });
    expect(bins[2]).toEqual({ label: '7–10', low: 7, high: 10 });
  });
});

describe('pearsonCorrelation', () => {
  it('x = 1..5, y = 2,4,5,4,5: Σdxdy = 6, Σdx² = 10, Σdy² = 6 → r = 6/√60 = 0.774597', () => {
    expect(pearsonCorrelation([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])).toBeCloseTo(0.774597, 6);
  });

  it('turns 2,4,6,8 vs flipped 0,0,1,1: Σdxdy = 4, Σdx² = 20, Σdy² = 1 → r = 4/√20 = 0.894427', () => {
    expect(pearsonCorrelation([2, 4, 6, 8], [0, 0, 1, 1])).toBeCloseTo(0.894427, 6);
  });

  it('is undefined without spread or with fewer than two points', () => {
    expect(pearsonCorrelation([1, 2, 3], [1, 1, 1])).toBeNull();
    expect(pearsonCorrelation([1], [1])).toBeNull();
  });
});

describe('harmfulFlipsByEffort (Fig. 3, App. L)', () => {
  it('counts gated cued reps per bin, hides bins under 15 and correlates raw reps', () => {
    // Bin 1–3: 14 reps (hidden), 2 flipped. Bin 7–10: 15 reps (shown), 3 flipped → 20%.
    // Bin 16–25: 1 rep at 30 turns (26+ merged), flipped.
    // Left out: one invalid rep, one rep with no turns, one rep at 0 turns, and an uncued-wrong item.
    const rows: JudgeRepRow[] = [];
    for (let index = 0; index < 14; index += 1) {
      rows.push(...item(`low${index}`, 'pass', 'pass', [[index < 2 ? 'fail' : 'pass', 2]]));
    }
    for (let index = 0; index < 15; index += 1) {
      rows.push(...item(`mid${index}`, 'fail', 'fail', [[index < 3 ? 'pass' : 'fail', 8]]));
    }
    rows.push(
      ...item('long', 'pass', 'pass', [
        ['fail', 30],
        [null, 30],
        ['fail', null],
        ['fail', 0],
      ]),
    );
    rows.push(...item('wrong', 'pass', 'fail', [['pass', 5]]));
    const [row] = harmfulFlipsByEffort(rows);
    expect(row).toMatchObject({
      condition: 'strong',
      judge: 'judge-a',
      n: 30,
      harmfulFlips: 6,
      excluded: { invalidVerdict: 1, noTurns: 1, outsideBins: 1 },
    });
    const [low, , mid, , high] = row?.bins ?? [];
    expect(low).toMatchObject({ n: 14, harmfulFlips: 2, hidden: true, harmfulFlipRate: null });
    expect(mid).toMatchObject({ n: 15, harmfulFlips: 3, hidden: false, harmfulFlipRate: 0.2 });
    expect(high).toMatchObject({ n: 1, harmfulFlips: 1, hidden: true });
    // r over all 30 raw points, hidden bins included.
    const xs = [...Array<number>(14).fill(2), ...Array<number>(15).fill(8), 30];
    const ys = [1, 1, ...Array<number>(12).fill(0), 1, 1, 1, ...Array<number>(12).fill(0), 1];
    expect(row?.pearsonR).toBeCloseTo(pearsonCorrelation(xs, ys) ?? NaN, 12);
    expect(EFFORT_MIN_REPS_PER_BIN).toBe(15);
  });

  it.each(Object.entries(TABLE_9))('reproduces Table 9 bin sizes for %s', (judge, expected) => {
    // Reps with turns in each bin; 40 of the 16–25 reps are at 30 turns (26+ merged into 16–25).
    const turnsPerBin = [2, 5, 8, 13, 20];
    const turns = expected.perBin.flatMap((count, bin) =>
      Array.from({ length: count }, (_, index) =>
        bin === 4 && index < 40 ? 30 : (turnsPerBin[bin] as number),
      ),
    );
    const rows: JudgeRepRow[] = [];
    for (let start = 0; start < turns.length; start += 3) {
      const flips = start % 4 === 0;
      const reps = turns.slice(start, start + 3).map((t) => [flips ? 'fail' : 'pass', t] as const);
      rows.push(...item(`${judge}-${start}`, 'pass', 'pass', reps, judge));
    }
    const [row] = harmfulFlipsByEffort(rows);
    expect(row?.n).toBe(expected.n);
    expect(row?.bins.map((bin) => bin.n)).toEqual(expected.perBin);
    expect(row?.bins.every((bin) => !bin.hidden)).toBe(true);
    expect(row?.pearsonR).not.toBeNull();
  });
});

describe('Fig. 3 bin intervals are clustered by item', () => {
  it('reps of one item that agree count as one: wider than Wilson over reps, items counted', () => {
    // 10 gated items, three cued reps each at 5 turns: 3 items flipped in all three reps.
    const rows = Array.from({ length: 10 }, (_, index) =>
      item(
        `i${index}`,
        'pass',
        'pass',
        Array.from({ length: 3 }, () => [index < 3 ? 'fail' : 'pass', 5] as const),
      ),
    ).flat();
    const [curve] = harmfulFlipsByEffort(rows);
    const bin = curve?.bins.find((entry) => entry.label === '4–6');
    expect(bin).toMatchObject({ n: 30, harmfulFlips: 9, items: 10, fewItems: true });
    const ci = bin?.harmfulFlipCi as { low: number; high: number };
    // As 30 independent reps Wilson would give about [0.167, 0.479]; as 10 items, [0.108, 0.603].
    expect(ci.high - ci.low).toBeGreaterThan(0.45);
    expect(ci.low).toBeGreaterThanOrEqual(0);
    expect(ci.high).toBeLessThanOrEqual(1);
  });
});
