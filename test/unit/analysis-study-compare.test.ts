/**
 * Comparing two studies: the interval and test helpers against published values, then a
 * hand-worked pair of studies (paired, shared items) and an independent one (unpaired).
 */
import { describe, expect, it } from 'vitest';
import {
  fisherExact,
  newcombePaired,
  newcombeUnpaired,
} from '../../src/main/engine/analysis/proportion-difference';
import { compareStudies, matchJudges } from '../../src/main/engine/analysis/study-compare';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';

describe('difference of two proportions', () => {
  it('gives Newcombe (1998a) method 10 for 56/70 vs 48/80 (0.0524 to 0.3339)', () => {
    const interval = newcombeUnpaired({ successes: 48, trials: 80 }, { successes: 56, trials: 70 });
    expect(interval?.low).toBeCloseTo(0.0524, 4);
    expect(interval?.high).toBeCloseTo(0.3339, 4);
  });

  it('gives the paired square-and-add interval of Fagerland et al. Ch. 8 (59, 6, 16, 80)', () => {
    // Published: estimate -0.0621, 95% CI -0.1186 to -0.0046 for p1 - p2; here B - A.
    const interval = newcombePaired({ both: 59, onlyA: 6, onlyB: 16, neither: 80 });
    expect(interval?.low).toBeCloseTo(0.0046, 4);
    expect(interval?.high).toBeCloseTo(0.1186, 4);
  });

  it("gives Fisher's tea-tasting p-value (3/4 vs 1/4: 0.4857) and 1 for an empty margin", () => {
    expect(fisherExact({ successes: 3, trials: 4 }, { successes: 1, trials: 4 })).toBeCloseTo(
      0.485714,
      6,
    );
    expect(fisherExact({ successes: 0, trials: 4 }, { successes: 0, trials: 5 })).toBe(1);
    expect(newcombeUnpaired({ successes: 0, trials: 0 }, { successes: 1, trials: 2 })).toBeNull();
  });
});

function arm(
  judge: string,
  dataset: string,
  itemId: string,
  condition: string,
  verdict: BinaryVerdict,
  direction: 'severity' | 'leniency' | null = null,
): JudgeRepRow[] {
  return [1, 2, 3].map((rep) => ({
    itemId,
    dataset,
    judge,
    condition,
    cueDirection: direction,
    rep,
    verdict,
    score: null,
    gold: 'pass',
    dimension: 'task_success',
    turns: null,
    simulated: false,
  }));
}

/** Items 1..4 uncued right, 5..6 uncued wrong; `flipped` items' cued majority is the other way. */
function study(judge: string, dataset: string, items: number, flipped: readonly number[]) {
  const rows: JudgeRepRow[] = [];
  for (let index = 1; index <= items; index += 1) {
    const uncued: BinaryVerdict = index <= 4 ? 'pass' : 'fail';
    const other: BinaryVerdict = uncued === 'pass' ? 'fail' : 'pass';
    const direction = uncued === 'pass' ? 'severity' : 'leniency';
    rows.push(...arm(judge, dataset, `item-${index}`, 'uncued', uncued));
    rows.push(
      ...arm(
        judge,
        dataset,
        `item-${index}`,
        'authority',
        flipped.includes(index) ? other : uncued,
        direction,
      ),
    );
  }
  return rows;
}

describe('compareStudies', () => {
  const studyA = study('judge-a', 'set', 6, [1, 2, 5]);

  it('pairs shared items: harmful 2/4 -> 1/4, helpful 1/2 -> 2/2, with the changed items', () => {
    const comparison = compareStudies(studyA, study('judge-a', 'set', 6, [1, 5, 6]));
    const [harmful, helpful] = comparison.rows;
    expect(harmful).toMatchObject({
      metric: 'harmful',
      design: 'paired',
      itemsA: 4,
      flipsA: 2,
      flipsB: 1,
      test: 'exact McNemar',
      pValue: 1,
      unsharedItems: 0,
    });
    expect(harmful?.difference).toBeCloseTo(-0.25, 10);
    expect(harmful?.differenceCi).toEqual(
      newcombePaired({ both: 1, onlyA: 1, onlyB: 0, neither: 2 }),
    );
    expect(helpful).toMatchObject({ metric: 'helpful', design: 'paired', flipsA: 1, flipsB: 2 });
    expect(helpful?.difference).toBeCloseTo(0.5, 10);
    expect(
      comparison.changedItems.map((item) => [item.itemId, item.outcomeA, item.outcomeB]),
    ).toEqual([
      ['item-2', 'harmful flip', 'held'],
      ['item-6', 'stayed wrong', 'helpful flip'],
    ]);
  });

  it('compares independent items unpaired and matches the one judge left on each side', () => {
    // Study C: three other items, all uncued right, all flipped (harmful 3/3).
    const comparison = compareStudies(studyA, study('judge-c', 'other', 3, [1, 2, 3]));
    expect(comparison.judges).toEqual([['judge-a', 'judge-c']]);
    const harmful = comparison.rows.find((row) => row.metric === 'harmful');
    expect(harmful).toMatchObject({
      design: 'unpaired',
      itemsA: 4,
      flipsA: 2,
      itemsB: 3,
      flipsB: 3,
    });
    expect(harmful?.test).toBe('Fisher exact');
    // Hand-worked: margins 5 of 7, P(k) = C(4,k)C(3,5-k)/21 = 6, 12, 3 /21; p = (6 + 3) / 21.
    expect(harmful?.pValue).toBeCloseTo(9 / 21, 10);
    expect(harmful?.difference).toBeCloseTo(0.5, 10);
    const helpful = comparison.rows.find((row) => row.metric === 'helpful');
    expect(helpful).toMatchObject({
      itemsB: 0,
      difference: null,
      pValue: null,
      differenceCi: null,
    });
    expect(comparison.changedItems).toEqual([]);
  });

  it('matches judges by id first and leaves the rest unmatched', () => {
    expect(matchJudges(['x', 'y', 'z'], ['y', 'w', 'v'])).toEqual([['y', 'y']]);
    expect(matchJudges(['x', 'y'], ['y', 'w'])).toEqual([
      ['y', 'y'],
      ['x', 'w'],
    ]);
  });
});
