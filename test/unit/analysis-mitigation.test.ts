import { describe, expect, it } from 'vitest';
import { findMitigationPairs, mitigationEffects } from '../../src/main/engine/analysis/mitigation';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { TABLE_1 } from '../../src/main/engine/paper/numbers';
import { PAPER_DATASETS } from '../../src/main/engine/paper/types';

const datasets = Object.keys(PAPER_DATASETS);
const other = (verdict: BinaryVerdict): BinaryVerdict => (verdict === 'pass' ? 'fail' : 'pass');

function arm(
  itemId: string,
  gold: BinaryVerdict,
  condition: string,
  verdict: BinaryVerdict,
  dataset: string,
  mitigation: string | null = null,
  placement = 'system',
): JudgeRepRow[] {
  return [0, 1, 2].map((rep) => ({
    itemId,
    dataset,
    judge: 'Sonnet-4.6',
    condition,
    cueDirection: null,
    rep,
    verdict,
    score: null,
    gold,
    dimension: 'task_success',
    turns: null,
    simulated: false,
    cueLabel: condition === 'uncued' ? null : 'strong',
    placement: condition === 'uncued' ? null : placement,
    mitigation,
  }));
}

/**
 * Table 1 as reps, pooled over the five datasets: 100 uncued-right and 100 uncued-wrong items.
 * Unmitigated: the first 18 right items flip and the first 30 wrong ones are corrected (18%, 30%).
 * With mitigation m: the first harmfulAfter and helpfulAfter do (a subset of the unmitigated ones).
 */
function table1Rows(): JudgeRepRow[] {
  // Every Table 1 row shares the unmitigated rates (18% harmful, 30% helpful).
  const before = {
    harmful: TABLE_1[0]?.harmfulBefore ?? NaN,
    helpful: TABLE_1[0]?.helpfulBefore ?? NaN,
  };
  const rows: JudgeRepRow[] = [];
  for (let index = 0; index < 200; index += 1) {
    const dataset = datasets[index % datasets.length] as string;
    const right = index < 100;
    const rank = right ? index : index - 100;
    const gold: BinaryVerdict = index % 2 === 0 ? 'pass' : 'fail';
    const uncued = right ? gold : other(gold);
    const id = `item${index}`;
    const cuedVerdict = (flips: number) => (rank < flips ? other(uncued) : uncued);
    rows.push(...arm(id, gold, 'uncued', uncued, dataset));
    rows.push(
      ...arm(id, gold, 'strong', cuedVerdict(right ? before.harmful : before.helpful), dataset),
    );
    for (const row of TABLE_1) {
      const flips = right ? row.harmfulAfter : row.helpfulAfter;
      rows.push(
        ...arm(id, gold, `strong+${row.mitigation}`, cuedVerdict(flips), dataset, row.mitigation),
      );
    }
  }
  return rows;
}

describe('mitigationEffects (§3.4, Table 1)', () => {
  const rows = table1Rows();

  it('pairs each mitigated arm with the unmitigated arm of the same cue and placement', () => {
    const orphan = arm('x', 'pass', 'strong@user+guard', 'pass', 'aj-search', 'guard', 'user');
    expect(findMitigationPairs([...rows, ...orphan])).toEqual(
      TABLE_1.map((row) => ({ before: 'strong', after: `strong+${row.mitigation}` })),
    );
  });

  it.each(TABLE_1.map((row) => [row.printedLabel, row] as const))(
    'reproduces the %s row pooled over datasets',
    (_, expected) => {
      const row = mitigationEffects(rows).find(
        (entry) => entry.scope === 'judge' && entry.mitigation === expected.mitigation,
      );
      const pct = (rate: number | null | undefined) => Math.round(100 * (rate ?? NaN));
      expect(row?.before).toMatchObject({ gate: 100, wrong: 100, condition: 'strong' });
      expect(pct(row?.before.harmfulFlipRate)).toBe(expected.harmfulBefore);
      expect(pct(row?.after.harmfulFlipRate)).toBe(expected.harmfulAfter);
      expect(pct(row?.before.helpfulFlipRate)).toBe(expected.helpfulBefore);
      expect(pct(row?.after.helpfulFlipRate)).toBe(expected.helpfulAfter);
      // Flips after are a subset of flips before, so c = 0 and p = 2 · ½^b.
      const b = expected.harmfulBefore - expected.harmfulAfter;
      expect(row?.harmfulTest).toMatchObject({ b, c: 0 });
      expect(row?.harmfulTest.pValue).toBeCloseTo(Math.min(1, 2 * 0.5 ** b), 12);
      expect(row?.helpfulTest.b).toBe(expected.helpfulBefore - expected.helpfulAfter);
      expect(row?.n).toBe(200);
    },
  );

  it('guard instruction: 13 fewer harmful flips, p = 2/8192; cite evidence: 2 fewer, p = 0.5', () => {
    const effects = mitigationEffects(rows).filter((row) => row.scope === 'judge');
    expect(
      effects.find((row) => row.mitigation === 'guard-instruction')?.harmfulTest.pValue,
    ).toBeCloseTo(2 / 8192, 12);
    expect(
      effects.find((row) => row.mitigation === 'cite-evidence')?.harmfulTest.pValue,
    ).toBeCloseTo(0.5, 12);
  });

  it('explicit pairs override the automatic pairing; rows exist at every scope', () => {
    const effects = mitigationEffects(rows, {
      pairs: [{ before: 'strong', after: 'strong+guard-instruction' }],
    });
    expect(new Set(effects.map((row) => row.mitigation))).toEqual(new Set(['guard-instruction']));
    expect(effects.filter((row) => row.scope === 'judge-dataset')).toHaveLength(5);
    expect(effects.at(-1)).toMatchObject({ scope: 'all', simulated: false });
  });
});
