import { describe, expect, it } from 'vitest';
import type { JudgeRepRow } from '../../src/main/engine/analysis';
import { compareCards } from '../../src/main/engine/reports/compare-cards';
import { cardAt, cardTable } from '../../src/main/engine/reports/tables-card';

/** A study of 20 items where `family` flips `flipped` items and its placebo one. */
function study(judge: string, family: string, flipped: number): JudgeRepRow[] {
  const items = Array.from({ length: 20 }, (_, index) => `item-${index}`);
  const rep = (condition: string, itemId: string, verdict: 'pass' | 'fail'): JudgeRepRow => ({
    ...{ itemId, dataset: 'cuelab-mini', judge, condition, rep: 1, verdict, score: null },
    ...{ gold: 'pass', dimension: 'task_success', turns: 4, simulated: true },
    cueDirection: condition === 'uncued' ? null : 'severity',
  });
  return items.flatMap((item, index) => [
    rep('uncued', item, 'pass'),
    rep(`family:${family}@system`, item, index < flipped ? 'fail' : 'pass'),
    rep(`family:${family}/placebo@system`, item, index < 1 ? 'fail' : 'pass'),
  ]);
}

describe('two report cards compared', () => {
  it('pairs arms by judge and condition, each flagged at the same tolerance, B − A beside', () => {
    const a = cardAt(cardTable(study('judge-a', 'bandwagon', 3)), 5, new Map([['judge-a', 1.5]]));
    const b = cardAt(cardTable(study('judge-a', 'bandwagon', 15)), 5, new Map());
    const compared = compareCards(a, b, { a: 'first', b: 'second' }, 5);
    expect(compared.rows).toHaveLength(1);
    const [row] = compared.rows;
    expect(row?.family).toBe('bandwagon');
    expect(row?.beyondA).toBeCloseTo(10, 10);
    expect(row?.beyondB).toBeCloseTo(70, 10);
    expect(row?.change).toBeCloseTo(60, 10);
    expect(row?.flagA).toBe('');
    expect(row?.flagB).toBe('FLAGGED');
    expect(row?.costA).toBe(1.5);
    expect(row?.costB).toBeNull();
    expect(compared.notes[0]).toContain('tolerance of 5 pp');
  });

  it('pairs the one leftover judge of each study, and names arms only one study ran', () => {
    const a = cardTable([
      ...study('old-model', 'bandwagon', 3),
      ...study('old-model', 'authority', 3),
    ]);
    const b = cardTable(study('new-model', 'bandwagon', 9));
    const compared = compareCards(a, b, { a: 'A', b: 'B' }, 0);
    expect(compared.rows.map((row) => [row.judgeA, row.judgeB, row.family])).toEqual([
      ['old-model', 'new-model', 'bandwagon'],
    ]);
    expect(compared.notes.join(' ')).toContain(
      'Not compared: old-model family:authority@system (A only).',
    );
    const none = compareCards(cardTable([]), cardTable([]), { a: 'A', b: 'B' }, 0);
    expect(none.notes.join(' ')).toContain('Neither study ran a cue-family arm');
  });
});
