/**
 * The synthetic judge reproduces the paper's item-level rates. The paper's rates are after the
 * majority of three reps (§3.1), so a persona calibrated per rep would show 3p² − 2p³ of them
 * (≈3% severity for a Sonnet-like persona instead of App. D's 10%). A seeded simulated
 * study of thousands of items, run through the real synthetic judge and the real analysis,
 * must land each persona inside the paper's 95% intervals: App. D severity and leniency,
 * Table 6's pooled harmful and helpful rates, and Fig. 3's sign of the effort correlation.
 */
import { describe, expect, it } from 'vitest';
import {
  itemRate,
  majorityOfThree,
  repRate,
} from '../../src/main/engine/simulation/item-calibration';
import { loadPersonas } from '../../src/main/engine/simulation/personas';
import { calibrationCheck } from '../../src/main/engine/simulation/calibration-study';

const personas = loadPersonas();

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
  it.each(personas.map((persona) => ({ persona })))(
    '$persona.id: App. D severity / leniency, Table 6 HF and HELP, Fig. 3 sign',
    async ({ persona }) => {
      const check = await calibrationCheck(persona, { items: 4000 });
      for (const entry of check.measures) {
        const shown = `${entry.measure}: ${((entry.simulated ?? 0) * 100).toFixed(1)}% vs [${(entry.paperCi.low * 100).toFixed(1)}, ${(entry.paperCi.high * 100).toFixed(1)}]`;
        expect(entry.simulated, shown).not.toBeNull();
        expect(entry.simulated ?? -1, shown).toBeGreaterThanOrEqual(entry.paperCi.low);
        expect(entry.simulated ?? 2, shown).toBeLessThanOrEqual(entry.paperCi.high);
        expect(entry.inside).toBe(true);
      }
      // Fig. 3: frontier judges flip more the more turns they take; open-weight ones less.
      expect(Math.sign(check.effortR ?? 0), `Fig. 3 r = ${check.effortR}`).toBe(
        check.expectedEffortSign,
      );
    },
    120_000,
  );
});
