/**
 * TOST on Newcombe intervals (analysis/equivalence.ts) against an interval worked by hand, and
 * the duality with two one-sided z-tests.
 */
import { describe, expect, it } from 'vitest';
import { pairedEquivalence, unpairedEquivalence } from '../../src/main/engine/analysis';

describe('TOST equivalence on Newcombe intervals', () => {
  it('50/100 vs 50/100: the 90% interval is ±0.1148, worked by hand', () => {
    // Wilson 90% for 50/100 (z = 1.6449): centre 0.5, half = z/(1 + z²/100)·√(0.0025 + z²/40000)
    // = 0.08116; Newcombe's difference interval is 0 ± √2·0.08116 = ±0.11478.
    const z = 1.6448536269514722;
    const half = (z / (1 + (z * z) / 100)) * Math.sqrt(0.0025 + (z * z) / 40000);
    const worked = Math.SQRT2 * half;
    expect(worked).toBeCloseTo(0.11478, 4);
    const same = { successes: 50, trials: 100 };
    const wide = unpairedEquivalence(same, same, 0.12);
    expect(wide?.interval.low).toBeCloseTo(-worked, 12);
    expect(wide?.interval.high).toBeCloseTo(worked, 12);
    expect(wide?.equivalent).toBe(true);
    expect(unpairedEquivalence(same, same, 0.11)?.equivalent).toBe(false);
  });

  it('no difference found is not equivalence: 2/10 vs 2/10 is too imprecise at ±10 points', () => {
    const small = { successes: 2, trials: 10 };
    expect(unpairedEquivalence(small, small, 0.1)?.equivalent).toBe(false);
    expect(unpairedEquivalence(small, { successes: 0, trials: 0 }, 0.1)).toBeNull();
    expect(() => unpairedEquivalence(small, small, 0)).toThrow(/margin/);
  });

  it('paired: many concordant items and few discordant ones are equivalent within 5 points', () => {
    // 300 items, 4 flipped in A only, 5 in B only: difference 1/300, tight paired interval.
    const counts = { both: 40, onlyA: 4, onlyB: 5, neither: 251 };
    const result = pairedEquivalence(counts, 0.05);
    expect(result?.equivalent).toBe(true);
    expect(result?.interval.low).toBeLessThan(1 / 300);
    expect(result?.interval.high).toBeGreaterThan(1 / 300);
    expect(pairedEquivalence(counts, 0.02)?.equivalent).toBe(false);
  });
});
