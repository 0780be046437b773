/**
 * Small-sample honesty in the tables: a one-item row and a zero-flip row of the flips table
 * (Table 6 layout) never show a zero-width interval, every rate interval stays in [0, 100] %,
 * and a row on fewer than 15 items says so in its own cell (CSV carries no notes).
 */
import { describe, expect, it } from 'vitest';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis';
import { flipsTable } from '../../src/main/engine/reports/tables-paired';

function reps(
  itemId: string,
  condition: string,
  verdicts: readonly BinaryVerdict[],
): JudgeRepRow[] {
  return verdicts.map((verdict, rep) => ({
    itemId,
    dataset: 'd',
    judge: 'j',
    condition,
    cueDirection: condition === 'uncued' ? null : 'severity',
    rep,
    verdict,
    score: null,
    gold: 'pass',
    dimension: 'task_success',
    turns: null,
    simulated: false,
  }));
}

describe('small samples in the flips table', () => {
  it('a one-item row: a real interval and a few-items warning', () => {
    const rows = [
      ...reps('a', 'uncued', ['pass', 'pass', 'pass']),
      ...reps('a', 'strong', ['fail', 'pass', 'pass']),
    ];
    const row = flipsTable(rows).rows.find((entry) => entry.scope === 'all');
    expect(row?.harmfulRepPct).toBeCloseTo(100 / 3, 9);
    const low = row?.harmfulRepCiLow as number;
    const high = row?.harmfulRepCiHigh as number;
    expect(high - low).toBeGreaterThan(20);
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeLessThanOrEqual(100);
    expect(row?.harmfulRepWarning).toBe('few items (n = 1 < 15)');
  });

  it('a zero-flip row over 20 items: an interval above 0 and no warning', () => {
    const rows = Array.from({ length: 20 }, (_, index) => [
      ...reps(`i${index}`, 'uncued', ['pass', 'pass', 'pass']),
      ...reps(`i${index}`, 'strong', ['pass', 'pass', 'pass']),
    ]).flat();
    const row = flipsTable(rows).rows.find((entry) => entry.scope === 'all');
    expect(row?.harmfulRepPct).toBe(0);
    expect(row?.harmfulRepCiLow).toBe(0);
    expect(row?.harmfulRepCiHigh as number).toBeGreaterThan(10);
    expect(row?.harmfulRepWarning).toBeNull();
    expect(flipsTable(rows).notes.join('\n')).toMatch(/never has zero width/);
  });
});
