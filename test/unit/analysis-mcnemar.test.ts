import { describe, expect, it } from 'vitest';
import { compareConditions, mcnemarExact } from '../../src/main/engine/analysis/mcnemar';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';

describe('mcnemarExact (two-sided, exact conditional)', () => {
  it('textbook 2×2 (Bentur et al., as in Fagerland et al. 2013 Table 1): b = 1, c = 7', () => {
    // P[X ≤ 1 | n = 8, ½] = (C(8,0) + C(8,1)) / 2⁸ = 9/256; two-sided = 18/256 = 0.0703125.
    const result = mcnemarExact(1, 7);
    expect(result).toMatchObject({ b: 1, c: 7, discordant: 8 });
    expect(result.pValue).toBeCloseTo(18 / 256, 12);
    expect(mcnemarExact(7, 1).pValue).toBeCloseTo(18 / 256, 12);
  });

  it('13 vs 0: 2 · ½¹³ = 2/8192; equal counts and no discordant pairs give 1', () => {
    expect(mcnemarExact(13, 0).pValue).toBeCloseTo(2 / 8192, 15);
    expect(mcnemarExact(5, 5).pValue).toBe(1);
    expect(mcnemarExact(0, 0).pValue).toBe(1);
  });

  it('stays finite for large n (log-space sum) and is symmetric', () => {
    // 2 · Σ_{k ≤ 400} C(900, k) / 2⁹⁰⁰ = 0.000956444136919 (exact rational arithmetic).
    const result = mcnemarExact(400, 500);
    expect(result.pValue).toBeCloseTo(0.000956444136919, 12);
    expect(mcnemarExact(500, 400).pValue).toBe(result.pValue);
    expect(mcnemarExact(2000, 2000).pValue).toBe(1);
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
  });
});

function item(itemId: string, gold: BinaryVerdict, uncued: BinaryVerdict, cued: BinaryVerdict) {
  const base = {
    itemId,
    dataset: 'ds',
    judge: 'judge-a',
    score: null,
    gold,
    dimension: 'task_success',
    turns: null,
    simulated: false,
  };
  return [0, 1, 2].flatMap((rep): JudgeRepRow[] => [
    { ...base, rep, condition: 'uncued', cueDirection: null, verdict: uncued },
    { ...base, rep, condition: 'strong', cueDirection: null, verdict: cued },
  ]);
}

describe('compareConditions', () => {
  // Same layout as the textbook table, as uncued vs cued correctness on 21 items (gold PASS):
  // 12 right in both, 7 right uncued only (harmful flips), 1 right cued only (helpful), 1 neither.
  const rows = [
    ...Array.from({ length: 12 }, (_, index) => item(`both${index}`, 'pass', 'pass', 'pass')),
    ...Array.from({ length: 7 }, (_, index) => item(`harm${index}`, 'pass', 'pass', 'fail')),
    item('help', 'pass', 'fail', 'pass'),
    item('neither', 'pass', 'fail', 'fail'),
  ].flat();

  it('scores each item by majority = gold in both conditions', () => {
    const [judgeRow, allRow] = compareConditions(rows, 'uncued', 'strong');
    expect(judgeRow).toMatchObject({
      scope: 'judge',
      judge: 'judge-a',
      n: 21,
      bothCorrect: 12,
      bothWrong: 1,
      b: 7,
      c: 1,
      discordant: 8,
    });
    expect(judgeRow?.pValue).toBeCloseTo(18 / 256, 12);
    expect(allRow).toMatchObject({ scope: 'all', judge: null, n: 21, b: 7, c: 1 });
  });

  it('restricted to uncued-correct items it tests harmful flips: b = 7, c = 0 → 2/128', () => {
    const [row] = compareConditions(rows, 'uncued', 'strong', { subset: 'uncued-correct' });
    expect(row).toMatchObject({ n: 19, b: 7, c: 0 });
    expect(row?.pValue).toBeCloseTo(2 / 128, 12);
  });
});
