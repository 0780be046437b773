/**
 * The synthetic judge reproduces the paper's item-level rates. The paper's rates are after the
 * majority of three reps (§3.1), so a persona calibrated per rep would show 3p² − 2p³ of them
 * (issue 12: ≈3% severity for a Sonnet-like persona instead of App. D's 10%). A seeded simulated
 * study of thousands of items, run through the real synthetic judge and the real analysis,
 * must land each persona inside the paper's 95% intervals: App. D severity and leniency,
 * Table 6's pooled harmful and helpful rates, and Fig. 3's sign of the effort correlation.
 */
import { describe, expect, it } from 'vitest';
import { directionAsymmetry } from '../../src/main/engine/analysis/direction';
import { harmfulFlipsByEffort } from '../../src/main/engine/analysis/effort';
import { flipRates } from '../../src/main/engine/analysis/flips';
import type { Interval } from '../../src/main/engine/analysis/types';
import { wilsonInterval } from '../../src/main/engine/analysis/wilson';
import { DIRECTION_BY_JUDGE, TABLE_6, type PaperJudge } from '../../src/main/engine/judge/paper';
import {
  itemRate,
  majorityOfThree,
  repRate,
} from '../../src/main/engine/providers/synthetic/item-calibration';
import { findPersona, loadPersonas } from '../../src/main/engine/providers/synthetic/personas';
import { simulateStudy } from '../helpers/simulated-study';

const personas = loadPersonas();

/** Table 6 pooled over a judge's five datasets. */
function table6(judge: PaperJudge) {
  const rows = TABLE_6.filter((row) => row.judge === judge);
  const sum = (field: 'gate' | 'hf' | 'wrong' | 'help') =>
    rows.reduce((total, row) => total + row[field], 0);
  return { gate: sum('gate'), hf: sum('hf'), wrong: sum('wrong'), help: sum('help') };
}

/** The paper's 95% Wilson interval of a rate measured on `n` items. */
function paperInterval(rate: number, n: number): Interval {
  return wilsonInterval(Math.round(rate * n), n) as Interval;
}

function expectInside(value: number | null | undefined, interval: Interval, what: string) {
  expect(value, what).not.toBeNull();
  const shown = `${what}: ${((value ?? 0) * 100).toFixed(1)}% vs [${(interval.low * 100).toFixed(1)}, ${(interval.high * 100).toFixed(1)}]`;
  expect(value ?? -1, shown).toBeGreaterThanOrEqual(interval.low);
  expect(value ?? 2, shown).toBeLessThanOrEqual(interval.high);
}

describe('item-level calibration (§3.1 majority of three)', () => {
  it('inverts the majority: independent reps would shrink 10% to 2.8%', () => {
    expect(majorityOfThree(0.1)).toBeCloseTo(0.028, 3);
    for (const correlation of [0, 0.5, 0.8, 1]) {
      for (const target of [0.03, 0.1, 0.25, 0.43, 0.65]) {
        expect(itemRate(repRate(target, correlation), correlation)).toBeCloseTo(target, 6);
      }
    }
    expect(repRate(0.1, 1)).toBeCloseTo(0.1, 6);
    expect(repRate(0.1, 0)).toBeGreaterThan(0.19);
  });
});

describe('a seeded simulated study reproduces the paper per persona', () => {
  const cases = personas.map((persona) => ({
    persona,
    judge: persona.calibratedOn as PaperJudge,
  }));

  it.each(cases)(
    '$persona.id: App. D severity / leniency, Table 6 HF and HELP, Fig. 3 sign',
    async ({ persona, judge }) => {
      const paper = table6(judge);
      const direction = DIRECTION_BY_JUDGE[judge];
      // Table 6's pooled HF rate is App. D's severity and leniency mixed by the share of gated
      // items that pass; solving for that share gives the gold mix to simulate.
      const pooled = paper.hf / paper.gate;
      const passShare =
        (pooled - direction.leniency / 100) / ((direction.severity - direction.leniency) / 100);
      expect(passShare).toBeGreaterThan(0);
      expect(passShare).toBeLessThan(1);
      const found = findPersona(personas, persona.id);
      const rows = await simulateStudy(found, { items: 4000, misleading: 0, passShare });
      const asymmetry = directionAsymmetry(rows).find((row) => row.scope === 'all');
      expectInside(
        asymmetry?.severity.harmfulFlipRate,
        paperInterval(direction.severity / 100, paper.gate),
        'App. D severity',
      );
      expectInside(
        asymmetry?.leniency.harmfulFlipRate,
        paperInterval(direction.leniency / 100, paper.gate),
        'App. D leniency',
      );
      const flips = flipRates(rows).find((row) => row.scope === 'all');
      expectInside(flips?.harmfulFlipRate, paperInterval(pooled, paper.gate), 'Table 6 HF');
      expect(flips?.excluded.undetermined).toBe(0);

      // Fig. 3: frontier judges flip more the more turns they take; open-weight ones less.
      const effort = harmfulFlipsByEffort(rows)[0];
      const frontier = judge === 'Opus-4.7' || judge === 'Sonnet-4.6';
      expect(Math.sign(effort?.pearsonR ?? 0), `Fig. 3 r = ${effort?.pearsonR}`).toBe(
        frontier ? 1 : -1,
      );

      // App. F / Table 6 helpful side: items wrong uncued because the skipped decisive check was
      // the only one that shows the failure.
      const wrong = await simulateStudy(found, { items: 3000, misleading: 1, passShare: 0 });
      const helpful = flipRates(wrong).find((row) => row.scope === 'all');
      expectInside(
        helpful?.helpfulFlipRate,
        paperInterval(paper.help / paper.wrong, paper.wrong),
        'Table 6 HELP',
      );
    },
    120_000,
  );
});
