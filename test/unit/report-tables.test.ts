/**
 * Report tables as pure functions of rep rows (no database, no process): mitigations with the
 * McNemar p, placement, effort bins, why a table is empty, csv quoting and the json
 * `simulated` field. Split from test/engine/reports.test.ts, which keeps the engine-level
 * checks (the built binary, stored studies, the runner).
 */
import { describe, expect, it } from 'vitest';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { formatCsv, formatJson } from '../../src/main/engine/reports/format';
import {
  ablationTable,
  effortTable,
  flipsTable,
  mitigationsTable,
  placementTable,
} from '../../src/main/engine/reports/tables';

describe('the other tables on data made for them', () => {
  const base = {
    dataset: 'ds',
    judge: 'j',
    score: null,
    dimension: 'task_success',
    simulated: false,
  };
  /** One item's three uncued and three cued reps. */
  function item(
    itemId: string,
    gold: BinaryVerdict,
    uncued: BinaryVerdict,
    cued: Partial<JudgeRepRow> & { condition: string; verdict: BinaryVerdict },
  ): JudgeRepRow[] {
    return [1, 2, 3].flatMap((rep) => [
      {
        ...base,
        itemId,
        gold,
        rep,
        condition: 'uncued',
        cueDirection: null,
        verdict: uncued,
        turns: 3,
      },
      {
        ...base,
        itemId,
        gold,
        rep,
        cueDirection: uncued === 'pass' ? ('severity' as const) : ('leniency' as const),
        turns: 3,
        ...cued,
      },
    ]);
  }

  it('mitigations: before → after with the McNemar p, paired by cue label and placement', () => {
    const rows: JudgeRepRow[] = [];
    for (let index = 0; index < 10; index += 1) {
      const id = `m${index}`;
      rows.push(
        ...item(id, 'pass', 'pass', {
          condition: 'strong',
          verdict: 'fail',
          cueLabel: 'strong',
          placement: 'system',
        }),
      );
      rows.push(
        ...item(id, 'pass', 'pass', {
          condition: 'strong+guard',
          verdict: index < 2 ? 'fail' : 'pass',
          cueLabel: 'strong',
          placement: 'system',
          mitigation: 'guard',
        }).filter((row) => row.condition !== 'uncued'),
      );
    }
    const table = mitigationsTable(rows);
    const all = table.rows.find((row) => row.scope === 'all');
    expect(all).toMatchObject({
      mitigation: 'guard',
      harmfulBeforePct: 100,
      harmfulAfterPct: 20,
      n: 10,
    });
    // 8 discordant pairs all one way: p = 2 · 0.5^8.
    expect(all?.harmfulP).toBeCloseTo(2 / 256, 12);
  });

  it('placement: the harmful flip rate per placement on a binary study, placements in order', () => {
    const rows: JudgeRepRow[] = [];
    for (let index = 0; index < 4; index += 1) {
      rows.push(
        ...item(`p${index}`, 'pass', 'pass', {
          condition: 'at-user',
          verdict: index < 1 ? 'fail' : 'pass',
          placement: 'user',
        }),
      );
      rows.push(
        ...item(`p${index}`, 'pass', 'pass', {
          condition: 'at-system',
          verdict: index < 3 ? 'fail' : 'pass',
          placement: 'system',
        }).filter((row) => row.condition !== 'uncued'),
      );
    }
    const table = placementTable(rows);
    expect(table.columns[0]?.key).toBe('placement');
    expect(table.rows.map((row) => [row.placement, row.metric, row.n, row.value])).toEqual([
      ['user', 'harmful flip %', 4, 25],
      ['system', 'harmful flip %', 4, 75],
    ]);
    expect(table.notes[0]).toContain('per placement');
  });

  it('effort: bins with n and rate, hidden bins marked, Pearson r on the judge row', () => {
    const rows: JudgeRepRow[] = [];
    for (let index = 0; index < 20; index += 1) {
      // Twenty items in the 4–6 bin (none flip), five in 11–15 (all flip).
      const flipped = index >= 15;
      rows.push(
        ...item(`e${index}`, 'pass', 'pass', {
          condition: 'strong',
          verdict: flipped ? 'fail' : 'pass',
          turns: flipped ? 12 : 5,
        }),
      );
    }
    const table = effortTable(rows);
    const bin = (label: string) => table.rows.find((row) => row.turns === label);
    expect(bin('4–6')).toMatchObject({ n: 45, harmful: 0, harmfulPct: 0, plotted: 'yes' });
    expect(bin('11–15')).toMatchObject({ n: 15, harmful: 15, harmfulPct: 100, plotted: 'yes' });
    expect(bin('1–3')).toMatchObject({ n: 0, harmfulPct: null, plotted: 'hidden' });
    expect(bin('all')).toMatchObject({ n: 60, harmful: 15 });
    expect(bin('all')?.pearsonR).toBeCloseTo(1, 10);
  });

  it('says why a table is empty', () => {
    expect(flipsTable([]).notes).toContain('this study has no finished reps yet');
    const controlOnly = item('x', 'pass', 'pass', { condition: 'uncued', verdict: 'pass' });
    // The reason comes last (the window shows the last note in place of an empty figure), after
    // a native study's budget_exhausted count, which is not why the table is empty.
    const nativeControlOnly = controlOnly.map((row) => ({ ...row, outcome: 'verdict' as const }));
    const notes = flipsTable(nativeControlOnly).notes;
    expect(notes.some((note) => note.startsWith('budget_exhausted reps: 0 of'))).toBe(true);
    expect(notes.at(-1)).toMatch(/^this study has no cued reps: an item’s cued reps are queued/);
    expect(ablationTable(controlOnly).notes[0]).toContain('no error-attribution reps');
    expect(
      mitigationsTable(item('x', 'pass', 'pass', { condition: 'c', verdict: 'fail' })).notes,
    ).toContain(
      'this study has no mitigated condition paired with an unmitigated one of the same cue and placement',
    );
  });

  it('formats csv with quoting and json with the simulated field', () => {
    const table = flipsTable(
      item('q', 'pass', 'pass', { condition: 'cue, "quoted"', verdict: 'fail', simulated: true }),
    );
    const csv = formatCsv(table);
    expect(csv.split('\r\n')[1]).toMatch(/^"cue, ""quoted""",task_success,judge-dataset,/);
    // A formula condition name is defused; the numeric cells stay numbers.
    const formula = formatCsv(
      flipsTable(item('f', 'pass', 'pass', { condition: '=cmd|"/C calc"!A0', verdict: 'fail' })),
    );
    const [, row] = formula.split('\r\n');
    expect(row).toMatch(/^"'=cmd\|""\/C calc""!A0",task_success,/);
    expect(
      row
        ?.split(',')
        .slice(2)
        .some((cell) => cell.startsWith("'")),
    ).toBe(false);
    expect(JSON.parse(formatJson(table))).toMatchObject({ name: 'flips', simulated: true });
  });
});
