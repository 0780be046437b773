import { describe, expect, it } from 'vitest';
import { directionAsymmetry } from '../../src/main/engine/analysis/direction';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { DIRECTION_BY_DATASET } from '../../src/main/engine/paper/numbers-appendix';

/** One item: three uncued reps, three cued reps opposing the uncued verdict. */
function item(
  itemId: string,
  gold: BinaryVerdict,
  uncued: BinaryVerdict,
  cued: BinaryVerdict,
  where: { judge?: string; dataset?: string } = {},
): JudgeRepRow[] {
  const base = {
    itemId,
    dataset: where.dataset ?? 'ds',
    judge: where.judge ?? 'judge-a',
    score: null,
    gold,
    dimension: 'task_success',
    turns: null,
    simulated: false,
  };
  const direction = uncued === 'pass' ? 'severity' : 'leniency';
  return [0, 1, 2].flatMap((rep) => [
    { ...base, rep, condition: 'uncued', cueDirection: null, verdict: uncued },
    { ...base, rep, condition: 'strong', cueDirection: direction, verdict: cued },
  ]);
}

describe('directionAsymmetry (§3.2, App. D)', () => {
  it('gates each direction on gold and on the uncued verdict being correct', () => {
    // Gold PASS, uncued PASS: p1 flips to FAIL, p2 holds        → severity 1/2.
    // Gold FAIL, uncued FAIL: f1 flips to PASS, f2, f3 hold     → leniency 1/3.
    // Gold PASS, uncued FAIL (w1) and gold FAIL, uncued PASS (w2) are uncued-wrong: in neither.
    const rows = [
      ...item('p1', 'pass', 'pass', 'fail'),
      ...item('p2', 'pass', 'pass', 'pass'),
      ...item('f1', 'fail', 'fail', 'pass'),
      ...item('f2', 'fail', 'fail', 'fail'),
      ...item('f3', 'fail', 'fail', 'fail'),
      ...item('w1', 'pass', 'fail', 'pass'),
      ...item('w2', 'fail', 'pass', 'fail'),
    ];
    const [cell] = directionAsymmetry(rows);
    expect(cell).toMatchObject({
      scope: 'judge-dataset',
      n: 5,
      severity: { gate: 2, harmful: 1, harmfulFlipRate: 0.5 },
      leniency: { gate: 3, harmful: 1 },
    });
    expect(cell?.leniency.harmfulFlipRate).toBeCloseTo(1 / 3, 12);
  });

  it('reproduces App. D by dataset from 100 gated items per direction, pooled over two judges', () => {
    // Per dataset: 100 gold-PASS and 100 gold-FAIL gated items, alternating between two judges;
    // the first severity% of the PASS items and leniency% of the FAIL items flip.
    const rows: JudgeRepRow[] = [];
    for (const [dataset, expected] of Object.entries(DIRECTION_BY_DATASET)) {
      for (let index = 0; index < 100; index += 1) {
        const where = { dataset, judge: index % 2 === 0 ? 'judge-a' : 'judge-b' };
        const severityFlip = index < expected.severity;
        const leniencyFlip = index < expected.leniency;
        rows.push(
          ...item(`${dataset}-p${index}`, 'pass', 'pass', severityFlip ? 'fail' : 'pass', where),
        );
        rows.push(
          ...item(`${dataset}-f${index}`, 'fail', 'fail', leniencyFlip ? 'pass' : 'fail', where),
        );
      }
    }
    const byDataset = directionAsymmetry(rows).filter((row) => row.scope === 'dataset');
    expect(byDataset).toHaveLength(5);
    for (const row of byDataset) {
      const expected = DIRECTION_BY_DATASET[row.dataset as keyof typeof DIRECTION_BY_DATASET];
      expect(row.severity.gate).toBe(100);
      expect(Math.round(100 * (row.severity.harmfulFlipRate ?? NaN))).toBe(expected.severity);
      expect(Math.round(100 * (row.leniency.harmfulFlipRate ?? NaN))).toBe(expected.leniency);
    }
  });

  it('excludeDatasets leaves a dataset out of every pool (App. D: SWE-Bench-Verified excluded)', () => {
    const rows = [
      ...item('a', 'pass', 'pass', 'fail', { dataset: 'aj-postgres' }),
      ...item('b', 'pass', 'pass', 'pass', { dataset: 'swe-bench-verified' }),
    ];
    const all = directionAsymmetry(rows).find((row) => row.scope === 'all');
    expect(all?.severity).toMatchObject({ gate: 2, harmful: 1 });
    const excluding = directionAsymmetry(rows, { excludeDatasets: ['swe-bench-verified'] });
    expect(excluding.find((row) => row.scope === 'all')?.severity).toMatchObject({
      gate: 1,
      harmful: 1,
    });
    expect(excluding.some((row) => row.dataset === 'swe-bench-verified')).toBe(false);
  });
});
