/**
 * The synthetic judge reproduces the paper's item-level rates. The paper's rates are after the
 * majority of three reps (§3.1), so a persona calibrated per rep would show 3p² − 2p³ of them
 * (≈3% severity for a Sonnet-like persona instead of App. D's 10%). A seeded simulated
 * study of thousands of items, run through the real synthetic judge and the real analysis, must
 * land each persona inside the paper's 95% intervals on what it was fitted to (App. D severity
 * and leniency, Table 5's uncued accuracy, Table 6's pooled helpful rate), and say where it
 * meets what it was not fitted to (Table 5's adversarial and untargeted accuracy, Fig. 3's sign).
 */
import { describe, expect, it } from 'vitest';
import {
  itemRate,
  majorityOfThree,
  repRate,
} from '../../src/main/engine/simulation/item-calibration';
import { loadPersonas } from '../../src/main/engine/simulation/personas';
import {
  calibrationCheck,
  formatCalibration,
} from '../../src/main/engine/simulation/calibration-study';

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

/**
 * Where each persona meets the numbers it was not solved for (calibration-study.ts): a ledger,
 * not a wish. Table 5's untargeted accuracy credits helpful flips on every wrong item, and the
 * simulated personas over-credit them wherever both gold labels are among the wrong items (the
 * helpful propensities were fitted on Table 6's wrong items alone): a known miss, recorded in
 * docs/PAPER-DECISIONS.md. A change that moves a row must change this ledger with it.
 */
const VALIDATED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'deferential-frontier': { 'Table 5 untargeted': 'within simulation error' },
  'robust-frontier': { 'Table 5 untargeted': 'outside' },
  'small-open-a': { 'Table 5 untargeted': 'outside' },
  'small-open-b': { 'Table 5 untargeted': 'outside' },
};

describe('a seeded simulated study reproduces the paper per persona', () => {
  it.each(personas.map((persona) => ({ persona })))(
    '$persona.id: fitted App. D, Table 5 before and adversarial, Table 6 HELP; validated Table 5 untargeted',
    async ({ persona }) => {
      const check = await calibrationCheck(persona, { items: 4000 });
      const validated: Record<string, string> = {};
      for (const entry of check.measures) {
        const shown = `${entry.measure}: ${((entry.simulated ?? 0) * 100).toFixed(1)}% vs [${(entry.paperCi.low * 100).toFixed(1)}, ${(entry.paperCi.high * 100).toFixed(1)}]`;
        expect(entry.simulated, shown).not.toBeNull();
        if (entry.role === 'validated') validated[entry.measure] = entry.verdict;
        // A fitted number clearly outside its interval means the solve itself is broken.
        else expect(entry.verdict, shown).not.toBe('outside');
      }
      expect(validated).toEqual(VALIDATED[persona.id]);
      // Fig. 3: frontier judges flip more the more turns they take; open-weight ones less.
      expect(Math.sign(check.effortR ?? 0), `Fig. 3 r = ${check.effortR}`).toBe(
        check.expectedEffortSign,
      );
    },
    120_000,
  );

  it('labels the implied and the chosen rows fitted, with the reason', async () => {
    const [persona] = personas;
    const check = await calibrationCheck(persona!, { items: 400 });
    const adversarial = check.measures.find((entry) => entry.measure === 'Table 5 adversarial');
    expect(adversarial?.role).toBe('fitted');
    expect(adversarial?.impliedBy).toMatch(/before × \(1 − pooled harmful rate\)/);
    const lines = formatCalibration([check], 400).join('\n');
    expect(lines).toMatch(/fitted \(re-check setting chosen for the sign\) \| Fig\. 3 effort r/);
    expect(lines).toMatch(/within simulation error|inside|outside/);
    expect(lines).not.toMatch(/\| validated \| Table 5 adversarial/);
  });

  it('sizes App. D intervals on its per-direction denominators, not the pooled gate', async () => {
    const [persona] = personas;
    const check = await calibrationCheck(persona!, { items: 400 });
    const n = (name: string) => check.measures.find((entry) => entry.measure === name)?.paperN;
    // Opus-4.7: gate 747 (Table 6), split at the gold mix where App. D's 43% and 25% give
    // Table 6's pooled 287 / 747: (0.3842 − 0.25) / 0.18 = 74.6% severity.
    expect(n('App. D severity')).toBe(557);
    expect(n('App. D leniency')).toBe(190);
    expect(n('Table 5 before')).toBe(980);
  });
});
