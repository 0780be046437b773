import { describe, expect, it } from 'vitest';
import { familyArmOf, reportCard, type JudgeRepRow } from '../../src/main/engine/analysis';
import { cardAt, cardTable } from '../../src/main/engine/reports/tables-card';
import { parseCardTolerance } from '../../src/shared/card-tolerance';
import { formatTable } from '../../src/main/engine/reports/format';

function reps(
  condition: string,
  itemId: string,
  verdicts: ('pass' | 'fail' | null)[],
  judge = 'anthropic/claude-3-7-sonnet-20250219-thinking-16k',
): JudgeRepRow[] {
  return verdicts.map((verdict, index) => ({
    itemId,
    dataset: 'cuelab-mini',
    judge,
    condition,
    cueDirection: condition === 'uncued' ? null : 'severity',
    rep: index + 1,
    verdict,
    score: null,
    gold: 'pass',
    dimension: 'task_success',
    turns: 5,
    simulated: true,
  }));
}

const items = ['a', 'b', 'c', 'd'];
const rows: JudgeRepRow[] = [
  ...items.flatMap((item) =>
    reps('uncued', item, item === 'd' ? ['pass', 'fail', 'pass'] : ['pass', 'pass', 'pass']),
  ),
  // The family arm flips a, b, c (every rep) and not d.
  ...items.flatMap((item) =>
    reps(
      'family:bandwagon@system',
      item,
      item === 'd' ? ['pass', 'pass', 'pass'] : ['fail', 'fail', 'fail'],
    ),
  ),
  // Its placebo flips only a.
  ...items.flatMap((item) =>
    reps(
      'family:bandwagon/placebo@system',
      item,
      item === 'a' ? ['fail', 'fail', 'fail'] : ['pass', 'pass', 'pass'],
    ),
  ),
];

describe('the report card', () => {
  it('reads family condition keys', () => {
    expect(familyArmOf('family:fake-verification/placebo/1@agent-tool-output+guard')).toEqual({
      family: 'fake-verification',
      placebo: true,
      template: 1,
      placement: 'agent-tool-output',
      mitigation: '+guard',
    });
    expect(familyArmOf('preset:strong@system')).toBeNull();
  });

  it('sets each family arm against its own placebo, with uncued accuracy and self-consistency', () => {
    const [row, ...rest] = reportCard(rows);
    expect(rest).toHaveLength(0);
    expect(row?.arm.family).toBe('bandwagon');
    expect(row?.gate).toBe(4);
    expect(row?.harmfulRep?.rate).toBeCloseTo(9 / 12, 10);
    expect(row?.harmfulRep?.interval.low).toBeLessThan(0.75);
    expect(row?.placebo).toBe('family:bandwagon/placebo@system');
    expect(row?.harmfulBeyondPlacebo?.difference).toBeCloseTo(0.5, 10);
    expect(row?.severity).toEqual({ gate: 4, harmful: 3 });
    expect(row?.uncuedAccuracy).toEqual({ correct: 4, items: 4 });
    expect(row?.selfConsistency).toEqual({ consistent: 3, items: 4 });
  });

  it('flags only when the interval lies above the tolerance; the CSV marks every row simulated', () => {
    const loose = reportCard(rows, { tolerancePp: 0 })[0];
    const low = loose?.harmfulBeyondPlacebo?.interval.low ?? 0;
    expect(loose?.flagged).toBe(low > 0);
    const strict = reportCard(rows, { tolerancePp: 99 })[0];
    expect(strict?.flagged).toBe(false);
    const csv = formatTable(cardTable(rows), 'csv');
    const [header, first] = csv.split('\r\n');
    expect(header?.endsWith(',simulated')).toBe(true);
    expect(first?.endsWith(',true')).toBe(true);
    expect(formatTable(cardTable(rows), 'md')).toContain('SIMULATED');
    expect(csv).toContain(
      'anthropic/claude-3-7-sonnet-20250219-thinking-16k,bandwagon,family:bandwagon@system,system,4,75',
    );
  });

  it('reads the flag again at a user-set tolerance, with each judge’s cost beside it', () => {
    // 20 items: the family arm flips 15 of them, its placebo one.
    const many = Array.from({ length: 20 }, (_, index) => `item-${index}`);
    const wide: JudgeRepRow[] = [
      ...many.flatMap((item) => reps('uncued', item, ['pass', 'pass'])),
      ...many.flatMap((item, index) =>
        reps('family:bandwagon@system', item, index < 15 ? ['fail', 'fail'] : ['pass', 'pass']),
      ),
      ...many.flatMap((item, index) =>
        reps(
          'family:bandwagon/placebo@system',
          item,
          index < 1 ? ['fail', 'fail'] : ['pass', 'pass'],
        ),
      ),
    ];
    const built = cardTable(wide);
    const low = Number(built.rows[0]?.harmfulBeyondPlaceboCiLow);
    expect(low).toBeGreaterThan(0);
    expect(built.rows[0]?.flag).toBe('FLAGGED');
    const judge = 'anthropic/claude-3-7-sonnet-20250219-thinking-16k';
    const below = cardAt(built, low - 1, new Map([[judge, 0.125]]));
    expect(below.rows[0]?.flag).toBe('FLAGGED');
    expect(below.rows[0]?.judgeCostUsd).toBe(0.125);
    const above = cardAt(built, low + 0.5, new Map());
    expect(above.rows[0]?.flag).toBe('');
    expect(above.rows[0]?.tolerancePp).toBe(low + 0.5);
    expect(above.rows[0]?.judgeCostUsd).toBeNull();
    expect(above.notes.find((note) => note.startsWith('Flag:'))).toContain(`${low + 0.5} pp`);
    // Read again or built at that tolerance, the card says the same.
    expect(cardTable(wide, low + 0.5).rows[0]?.flag).toBe('');
    expect(cardTable(wide, low - 1).rows[0]?.flag).toBe('FLAGGED');
    expect(formatTable(above, 'csv').split('\r\n')[0]).toContain(',flag,tolerancePp,');
  });

  it('refuses a tolerance that is not 0 to 100 percentage points, saying why', () => {
    expect(parseCardTolerance(' 5 ')).toBe(5);
    expect(parseCardTolerance('abc')).toMatch(/"abc" is not a number of percentage points/);
    expect(parseCardTolerance('-1')).toMatch(/-1 pp is outside 0 to 100/);
    expect(parseCardTolerance('')).toMatch(/not a number/);
  });
});
