import { describe, expect, it } from 'vitest';
import { gradedBars } from '../../src/renderer/charts/models/graded';

// App. G: graded flips per judge in the window, at the study's threshold.
describe('the graded-flip figure model', () => {
  it('takes the judge rows then the pooled row, with CI, n and the threshold', () => {
    const row = (scope: string, judge: string, flipPct: number) => ({
      condition: 'strong',
      dimension: 'completeness',
      scope,
      judge,
      dataset: 'all',
      n: 90,
      flipped: 9,
      flipPct,
      flipCiLow: flipPct - 5,
      flipCiHigh: flipPct + 5,
      meanShift: 12,
      gate: 60,
      harmful: 6,
      harmfulPct: flipPct + 1,
      harmfulCiLow: null,
      harmfulCiHigh: null,
      wrong: 30,
      helpful: 3,
      helpfulPct: flipPct - 1,
      helpfulCiLow: null,
      helpfulCiHigh: null,
      noGold: 0,
      reps: 270,
      flippedReps: 27,
      threshold: 15,
      pooled: scope === 'all',
    });
    const { bars, threshold } = gradedBars({
      name: 'graded',
      title: 't',
      columns: [],
      rows: [row('all', 'all', 30), row('judge-dataset', 'a', 10), row('judge', 'a', 20)],
      notes: [],
      simulated: true,
      reps: 1,
    });
    expect(threshold).toBe(15);
    expect(bars.map((bar) => [bar.label, bar.value, bar.low, bar.n])).toEqual([
      ['a', 20, 15, 90],
      ['All judges', 30, 25, 90],
    ]);
    // App. G's gold gate splits each bar into harmful and helpful.
    expect(bars.map((bar) => [bar.harmfulPct, bar.gate, bar.helpfulPct, bar.wrong])).toEqual([
      [21, 60, 19, 30],
      [31, 60, 29, 30],
    ]);
  });
});
