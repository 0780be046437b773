/**
 * Power after a study (analysis/realized-power.ts): the ICC of the uncued reps against a
 * one-way ANOVA worked by hand, and the realized MDD of a paired comparison against the exact
 * McNemar power it promises.
 */
import { describe, expect, it } from 'vitest';
import { realizedPower, realizedPowerCell, uncuedRepIcc } from '../../src/main/engine/analysis';
import type { JudgeRepRow } from '../../src/main/engine/analysis';
import { mcnemarPower } from '../../src/shared/power';
import { benjaminiHochbergAdjust } from '../../src/main/engine/analysis';
import { mitigationsTable } from '../../src/main/engine/reports/tables-mitigations';

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

describe('the mitigations table: realized power and BH beside Holm', () => {
  it('each row says what it could detect; BH is adjusted over the same family as Holm', () => {
    const arm = (condition: string, mitigation: string | null, flips: (index: number) => boolean) =>
      Array.from({ length: 40 }, (_, index) =>
        [0, 1, 2].map((r) => ({
          ...rep(`i${index}`, r, !flips(index), condition),
          cueDirection: 'severity' as const,
          cueLabel: 'preset:strong',
          placement: 'system',
          mitigation,
        })),
      ).flat();
    const rows = [
      ...Array.from({ length: 40 }, (_, index) =>
        [0, 1, 2].map((r) => rep(`i${index}`, r, true)),
      ).flat(),
      ...arm('strong', null, (index) => index < 12),
      ...arm('strong+guard', 'guard', (index) => index < 2),
      ...arm('strong+note', 'note', (index) => index >= 28),
    ];
    const table = mitigationsTable(rows);
    const judgeRows = table.rows.filter((row) => row.scope === 'judge-dataset');
    expect(judgeRows.map((row) => row.mitigation)).toEqual(['guard', 'note']);
    const [guard, note] = judgeRows;
    expect(guard?.harmfulPower).toBe('detected');
    expect(note?.harmfulPower).toMatch(/^no change > \d+\.\d pp$/);
    const bh = benjaminiHochbergAdjust(judgeRows.map((row) => row.harmfulP as number));
    expect(judgeRows.map((row) => row.harmfulPBh)).toEqual(bh);
    // Every uncued rep right: no variation to estimate an ICC from.
    expect(table.notes.join('\n')).toMatch(/ICC of the uncued reps .* = n\/a/);
  });
});
