import { describe, expect, it } from 'vitest';
import { proportion, wilsonInterval } from '../../src/main/engine/analysis/wilson';

describe('wilsonInterval (z = 1.96)', () => {
  it('0/10: [0, z²/(n + z²)] = [0, 3.8416/13.8416] = [0, 0.27754]', () => {
    const interval = wilsonInterval(0, 10);
    expect(interval?.low).toBe(0);
    expect(interval?.high).toBeCloseTo(0.27754, 5);
  });

  it('5/10: 0.5 ± (1.96/1.38416)·√(0.025 + 0.009604) = 0.5 ± 0.26341', () => {
    const interval = wilsonInterval(5, 10);
    expect(interval?.low).toBeCloseTo(0.23659, 5);
    expect(interval?.high).toBeCloseTo(0.76341, 5);
  });

  it('10/10 mirrors 0/10: [1 − 0.27754, 1]', () => {
    const interval = wilsonInterval(10, 10);
    expect(interval?.low).toBeCloseTo(0.72246, 5);
    expect(interval?.high).toBe(1);
  });

  it('36/47 (Qwen3-235B on AJ-Postgres, App. C) brackets 0.766', () => {
    // p = 0.76596; centre = (p + 1.9208/47) / (1 + 3.8416/47) = 0.80682 / 1.08174 = 0.74585;
    // half = (1.96 / 1.08174) · √(p(1 − p)/47 + 3.8416/8836) = 1.81190 · 0.06511 = 0.11797.
    const interval = wilsonInterval(36, 47);
    expect(interval?.low).toBeCloseTo(0.6279, 3);
    expect(interval?.high).toBeCloseTo(0.8638, 3);
  });

  it('no trials: no rate and no interval; bad counts throw', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(proportion(0, 0)).toBeNull();
    expect(proportion(3, 4)).toBe(0.75);
    expect(() => wilsonInterval(11, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 10)).toThrow(RangeError);
  });
});
