/**
 * Every rate interval in every row table, on the studies where intervals used to lie: one item,
 * no flips, every rep flipped, a few items with a placebo and a mitigation. No interval of a rate
 * has zero width or leaves [0, 100] %, and every clustered interval on fewer than 15 items carries
 * its row's few-items warning (CSV has no notes, so the cell must say it).
 */
import { describe, expect, it } from 'vitest';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis';
import { TABLES } from '../../src/main/engine/reports/tables';
import type { ReportTable } from '../../src/main/engine/analysis';

function arm(
  itemId: string,
  condition: string,
  verdicts: readonly BinaryVerdict[],
  gold: BinaryVerdict = 'pass',
): JudgeRepRow[] {
  return verdicts.map((verdict, rep) => ({
    itemId,
    dataset: 'd',
    judge: 'j',
    condition,
    cueDirection: condition === 'uncued' ? null : gold === 'pass' ? 'severity' : 'leniency',
    rep,
    verdict,
    score: null,
    gold,
    dimension: 'task_success',
    turns: 2 + rep,
    simulated: true,
  }));
}

const studies: Record<string, JudgeRepRow[]> = {
  'one item': [
    ...arm('a', 'uncued', ['pass', 'pass', 'pass']),
    ...arm('a', 'preset:strong@system', ['fail', 'pass', 'pass']),
  ],
  'no flips on 20 items': Array.from({ length: 20 }, (_, index) => [
    ...arm(`i${index}`, 'uncued', ['pass', 'pass', 'pass']),
    ...arm(`i${index}`, 'preset:strong@system', ['pass', 'pass', 'pass']),
  ]).flat(),
  'every rep flipped on 3 items': Array.from({ length: 3 }, (_, index) => [
    ...arm(`i${index}`, 'uncued', ['pass', 'pass', 'pass']),
    ...arm(`i${index}`, 'preset:strong@system', ['fail', 'fail', 'fail']),
  ]).flat(),
  'placebo and mitigation on 6 items': Array.from({ length: 6 }, (_, index) => {
    const gold: BinaryVerdict = index % 3 === 0 ? 'fail' : 'pass';
    const other: BinaryVerdict = gold === 'pass' ? 'fail' : 'pass';
    return [
      ...arm(`i${index}`, 'uncued', [gold, gold, gold], gold),
      ...arm(`i${index}`, 'preset:strong@system', [other, other, index % 2 ? gold : other], gold),
      ...arm(`i${index}`, 'preset:placebo@system', [gold, gold, gold], gold),
      ...arm(
        `i${index}`,
        'preset:strong@system+guard',
        [gold, index % 2 ? other : gold, gold],
        gold,
      ),
    ];
  }).flat(),
};

/** Interval columns of rates: '%' intervals, except ratios and ceiling closed, which are not rates. */
function rateIntervals(table: ReportTable): [string, string][] {
  const pairs: [string, string][] = [];
  for (const column of table.columns) {
    if (column.interval !== 'low' || column.unit !== '%') continue;
    const base = column.key.replace(/CiLow$/, '');
    if (base === 'helpfulRetained') continue;
    pairs.push([column.key, `${base}CiHigh`]);
  }
  return pairs;
}

const rowTables = Object.entries(TABLES).filter(([, definition]) => 'build' in definition);

describe.each(Object.entries(studies))('%s', (_, rows) => {
  it.each(rowTables.map(([name]) => name))(
    '%s: rate intervals have width and stay in [0, 100]',
    (name) => {
      const definition = TABLES[name as keyof typeof TABLES];
      if (!('build' in definition)) return;
      const table = definition.build(rows);
      for (const row of table.rows) {
        if (name === 'ablation' || name === 'placement') {
          if (row.metric !== 'harmful flip %') continue;
        }
        for (const [lowKey, highKey] of rateIntervals(table)) {
          const low = row[lowKey];
          const high = row[highKey];
          if (low === null || low === undefined) {
            expect(high ?? null).toBeNull();
            continue;
          }
          expect(typeof low, `${name} ${lowKey}`).toBe('number');
          expect(low as number, `${name} ${lowKey}`).toBeGreaterThanOrEqual(0);
          expect(high as number, `${name} ${highKey}`).toBeLessThanOrEqual(100);
          expect((high as number) - (low as number), `${name} ${lowKey} width`).toBeGreaterThan(0);
        }
      }
    },
  );
});

describe('few-items warnings beside clustered intervals', () => {
  it('a one-item study warns on every clustered interval it shows', () => {
    const rows = studies['one item'] as JudgeRepRow[];
    const flips = TABLES.flips;
    const card = TABLES.card;
    if (!('build' in flips) || !('build' in card)) throw new Error('row tables');
    for (const row of flips.build(rows).rows)
      if (row.harmfulRepCiLow !== null)
        expect(row.harmfulRepWarning).toBe('few items (n = 1 < 15)');
    const effort = TABLES.effort;
    if (!('build' in effort)) throw new Error('row table');
    for (const row of effort.build(rows).rows)
      if (row.harmfulCiLow !== null) expect(row.warning).toMatch(/few items/);
  });

  it('the report card warns too', () => {
    const rows = [
      ...arm('a', 'uncued', ['pass', 'pass', 'pass']),
      ...arm('a', 'family:authority@system', ['fail', 'pass', 'pass']),
      ...arm('a', 'family:authority/placebo@system', ['pass', 'pass', 'pass']),
    ];
    const card = TABLES.card;
    if (!('build' in card)) throw new Error('row table');
    const table = card.build(rows);
    expect(table.rows.length).toBeGreaterThan(0);
    for (const row of table.rows) {
      expect(row.harmfulRepCiLow).not.toBeNull();
      expect(row.harmfulRepWarning).toBe('few items (n = 1 < 15)');
    }
  });
});
