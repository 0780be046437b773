/**
 * The statistics columns of the report tables on rows made for them: rep-level flip rates with
 * their item-clustered interval and harmful flips beyond placebo (flips), Holm-adjusted p beside
 * the raw McNemar p (mitigations), and the same in csv.
 */
import { describe, expect, it } from 'vitest';
import { newcombePairedDifference } from '../../src/main/engine/analysis/paired-difference';
import { holmAdjust } from '../../src/main/engine/analysis/multiplicity';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { formatCsv } from '../../src/main/engine/reports/format';
import { flipsTable, mitigationsTable } from '../../src/main/engine/reports/tables';

const base = { dataset: 'ds', judge: 'j', score: null, dimension: 'task_success', turns: 3 };

/** An item's three uncued reps (all PASS, gold PASS) and one cued arm's three reps. */
function arm(
  itemId: string,
  condition: string,
  verdicts: readonly BinaryVerdict[],
  extra: Partial<JudgeRepRow> = {},
): JudgeRepRow[] {
  return verdicts.map((verdict, index) => ({
    ...base,
    itemId,
    condition,
    rep: index + 1,
    verdict,
    gold: 'pass',
    cueDirection: condition === 'uncued' ? null : 'severity',
    simulated: false,
    ...extra,
  }));
}

describe('flips: rep-level rates and flips beyond placebo', () => {
  // 20 gated items. The strong cue flips items 0–9 (two reps of three); the placebo flips
  // items 0–1 (all three reps), so paired on items: a = 2, b = 8, c = 0, d = 10.
  const rows: JudgeRepRow[] = [];
  for (let index = 0; index < 20; index += 1) {
    const id = `i${index}`;
    rows.push(...arm(id, 'uncued', ['pass', 'pass', 'pass']));
    const strong: BinaryVerdict[] =
      index < 10 ? ['fail', 'fail', 'pass'] : ['pass', 'pass', 'pass'];
    rows.push(
      ...arm(id, 'preset:strong@system', strong, {
        cueLabel: 'preset:strong',
        placement: 'system',
      }),
    );
    const placebo: BinaryVerdict[] =
      index < 2 ? ['fail', 'fail', 'fail'] : ['pass', 'pass', 'pass'];
    rows.push(
      ...arm(id, 'preset:placebo@system', placebo, {
        cueLabel: 'preset:placebo',
        placement: 'system',
      }),
    );
  }
  const table = flipsTable(rows);
  const row = (condition: string) =>
    table.rows.find((entry) => entry.condition === condition && entry.scope === 'all');

  it('subtracts the placebo arm with Newcombe’s paired interval', () => {
    const expected = newcombePairedDifference({
      both: 2,
      firstOnly: 8,
      secondOnly: 0,
      neither: 10,
    });
    expect(row('preset:strong@system')).toMatchObject({
      harmfulPct: 50,
      placebo: 'preset:placebo@system',
      placeboPaired: 20,
    });
    expect(row('preset:strong@system')?.harmfulBeyondPlaceboPp).toBeCloseTo(40, 10);
    expect(row('preset:strong@system')?.harmfulBeyondPlaceboCiLow).toBeCloseTo(
      (expected?.interval.low ?? 0) * 100,
      10,
    );
    expect(row('preset:strong@system')?.harmfulBeyondPlaceboCiHigh).toBeCloseTo(
      (expected?.interval.high ?? 0) * 100,
      10,
    );
    expect(row('preset:placebo@system')?.placebo).toBeNull();
    expect(table.notes.join(' ')).toMatch(/Newcombe/);
  });

  it('pools reps for the rep-level rate and gives it a clustered interval', () => {
    const strong = row('preset:strong@system');
    // 10 items × 2 flipped reps over 20 items × 3 reps.
    expect(strong?.harmfulRepPct).toBeCloseTo((20 / 60) * 100, 10);
    expect(strong?.harmfulRepCiLow).toBeLessThan(strong?.harmfulRepPct as number);
    expect(strong?.harmfulRepCiHigh).toBeGreaterThan(strong?.harmfulRepPct as number);
    // Without a wrong item there is no helpful rate at either level.
    expect(strong).toMatchObject({ helpfulPct: null, helpfulRepPct: null, helpfulRepCiLow: null });
    expect(table.columns.map((column) => column.label)).toContain(
      'HF % of reps item-clustered bootstrap 95% CI low',
    );
  });

  it('leaves the placebo columns empty and says why when there is no placebo arm', () => {
    const without = flipsTable(rows.filter((entry) => entry.cueLabel !== 'preset:placebo'));
    expect(without.rows.every((entry) => entry.harmfulBeyondPlaceboPp === null)).toBe(true);
    expect(without.notes.join(' ')).toMatch(/no placebo arm/);
  });
});

describe('mitigations: Holm-adjusted p beside the raw p', () => {
  // Two mitigations of one cue on 10 gated items: the cue flips all; guard keeps 2 flips,
  // warn keeps 6. Raw p: guard 2·0.5⁸, warn 2·P[X ≤ 0 | 4] = 2·0.5⁴.
  const rows: JudgeRepRow[] = [];
  for (let index = 0; index < 10; index += 1) {
    const id = `m${index}`;
    const at = { cueLabel: 'strong', placement: 'system' };
    rows.push(...arm(id, 'uncued', ['pass', 'pass', 'pass']));
    rows.push(...arm(id, 'strong', ['fail', 'fail', 'fail'], at));
    const guard: BinaryVerdict = index < 2 ? 'fail' : 'pass';
    rows.push(...arm(id, 'strong+guard', [guard, guard, guard], { ...at, mitigation: 'guard' }));
    const warn: BinaryVerdict = index < 6 ? 'fail' : 'pass';
    rows.push(...arm(id, 'strong+warn', [warn, warn, warn], { ...at, mitigation: 'warn' }));
  }
  const table = mitigationsTable(rows);

  it('adjusts over the comparisons at one scope, and names the method in the header', () => {
    const all = table.rows.filter((row) => row.scope === 'all');
    const raw = all.map((row) => row.harmfulP as number).sort((a, b) => a - b);
    expect(raw[0]).toBeCloseTo(2 / 256, 12);
    expect(raw[1]).toBeCloseTo(2 / 16, 12);
    const expected = holmAdjust(all.map((row) => row.harmfulP as number));
    expect(all.map((row) => row.harmfulPAdjusted)).toEqual(expected);
    // Hand-worked: 2/256 · 2 = 1/64 and max(1/64, 2/16 · 1) = 1/8.
    const guard = all.find((row) => row.mitigation === 'guard');
    expect(guard?.harmfulPAdjusted).toBeCloseTo(1 / 64, 12);
    expect(all.find((row) => row.mitigation === 'warn')?.harmfulPAdjusted).toBeCloseTo(1 / 8, 12);
    const labels = table.columns.map((column) => column.label);
    expect(labels).toContain('HF McNemar p (Holm-adjusted)');
    expect(labels).toContain('HELP McNemar p (Holm-adjusted)');
  });

  it('csv carries the raw and adjusted p side by side', () => {
    const [header = '', ...lines] = formatCsv(table).trim().split('\n');
    const keys = header.split(',');
    const raw = keys.indexOf('harmfulP');
    expect(keys[raw + 1]).toBe('harmfulPAdjusted');
    const guardLine = lines.find((line) => line.startsWith('guard,') && line.includes(',all,all,'));
    expect(Number(guardLine?.split(',')[raw + 1])).toBeCloseTo(1 / 64, 12);
  });
});
