/**
 * Readings the paper reports beside its headline numbers: App. E's grand mean over judge ×
 * dataset cells next to the item-pooled rate; items with an undetermined majority counted, not
 * dropped (§3.1 majority of three); and §3.4's two readings of a mitigation's control arm.
 */
import { describe, expect, it } from 'vitest';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { flipsTable, mitigationsTable } from '../../src/main/engine/reports/tables';

function reps(
  judge: string,
  dataset: string,
  itemId: string,
  condition: string,
  verdicts: readonly (BinaryVerdict | null)[],
  extra: Partial<JudgeRepRow> = {},
): JudgeRepRow[] {
  return verdicts.map((verdict, index) => ({
    itemId,
    dataset,
    judge,
    condition,
    cueDirection: condition === 'uncued' || condition.startsWith('uncued+') ? null : 'severity',
    rep: index + 1,
    verdict,
    score: null,
    gold: 'pass',
    dimension: 'task_success',
    turns: 5,
    simulated: false,
    ...extra,
  }));
}

/** `flipped` of `items` gated items of one judge × dataset cell, flipped by condition "cue". */
function cell(judge: string, dataset: string, items: number, flipped: number): JudgeRepRow[] {
  return Array.from({ length: items }, (_, index) => [
    ...reps(judge, dataset, `${dataset}-${index}`, 'uncued', ['pass', 'pass', 'pass']),
    ...reps(
      judge,
      dataset,
      `${dataset}-${index}`,
      'cue',
      index < flipped ? ['fail', 'fail', 'pass'] : ['pass', 'pass', 'fail'],
    ),
  ]).flat();
}

describe('App. E grand mean beside the pooled rate', () => {
  it('averages the cells unweighted while HF % pools the items', () => {
    // Cells: 1 of 2 (50%) and 1 of 8 (12.5%): grand mean 31.25%, pooled 2 of 10 = 20%.
    const table = flipsTable([...cell('j', 'a', 2, 1), ...cell('j', 'b', 8, 1)]);
    const judge = table.rows.find((row) => row.scope === 'judge');
    expect(judge).toMatchObject({ harmfulPct: 20, harmfulGrandMeanPct: 31.25 });
    const cellRow = table.rows.find((row) => row.dataset === 'a');
    expect(cellRow).toMatchObject({ harmfulPct: 50, harmfulGrandMeanPct: 50 });
  });
});

describe('undetermined items (§3.1 majority of three)', () => {
  it('are counted in their own column, in no denominator', () => {
    const rows = [
      ...cell('j', 'a', 2, 1),
      ...reps('j', 'a', 'tied', 'uncued', ['pass', 'fail', null]),
      ...reps('j', 'a', 'tied', 'cue', ['fail', 'fail', 'fail']),
    ];
    const row = flipsTable(rows).rows.find((entry) => entry.scope === 'judge-dataset');
    expect(row).toMatchObject({ n: 2, gate: 2, undetermined: 1 });
  });
});

describe('the control arm of a mitigation (§3.4)', () => {
  const mitigated = { mitigation: 'guard', cueLabel: 'strong', placement: 'system' };
  const plain = { cueLabel: 'strong', placement: 'system', mitigation: null };
  const rows = [0, 1, 2, 3].flatMap((index) => [
    ...reps('j', 'a', `i${index}`, 'uncued', ['pass', 'pass', 'pass']),
    // The guard makes the uncued judge fail items 0 and 1 by itself.
    ...reps(
      'j',
      'a',
      `i${index}`,
      'uncued+guard',
      index < 2 ? ['fail', 'fail', 'fail'] : ['pass', 'pass', 'pass'],
      { mitigation: 'guard' },
    ),
    ...reps(
      'j',
      'a',
      `i${index}`,
      'cue',
      index < 3 ? ['fail', 'fail', 'fail'] : ['pass', 'pass', 'pass'],
      plain,
    ),
    ...reps(
      'j',
      'a',
      `i${index}`,
      'cue+guard',
      index < 2 ? ['fail', 'fail', 'fail'] : ['pass', 'pass', 'pass'],
      mitigated,
    ),
  ]);

  it('states the reading it uses and shows the other when the study has a mitigated control', () => {
    const table = mitigationsTable(rows);
    expect(table.notes.join('\n')).toContain('does not say whether the control arm');
    const row = table.rows.find((entry) => entry.scope === 'judge-dataset');
    // Unmitigated control: 3 of 4 flipped before, 2 of 4 after.
    expect(row).toMatchObject({
      control: 'unmitigated',
      harmfulBeforePct: 75,
      harmfulAfterPct: 50,
    });
    // Mitigated control: items 0 and 1 are already FAIL there, so the after arm flips none of
    // the two items that control got right.
    expect(row?.harmfulAfterMitigatedPct).toBe(0);
  });

  it('leaves the mitigated-control columns empty without such an arm', () => {
    const row = mitigationsTable(rows.filter((entry) => entry.condition !== 'uncued+guard'))
      .rows[0];
    expect(row?.harmfulAfterMitigatedPct).toBeNull();
  });
});
