/**
 * The headline check: per-rep records built from Table 6's counts (App. C) go through the whole
 * pipeline (majority → pairing → flips → accuracy) and come back as Table 6's percentages and
 * Table 5's accuracies at their printed precision.
 */
import { describe, expect, it } from 'vitest';
import { accuracyUnderCue } from '../../src/main/engine/analysis/accuracy';
import { flipRates } from '../../src/main/engine/analysis/flips';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';
import { TABLE_5, TABLE_5_APPROX_N, TABLE_6 } from '../../src/main/engine/paper/numbers';
import type { Table6Row } from '../../src/main/engine/paper/numbers';
import { table6RepGroups } from '../helpers/table6-reps';

/**
 * One Table 6 cell as reps. Items 0..gate-1 are uncued-right (the first #HF flip), the rest
 * uncued-wrong (the first #HELP get corrected). Gold alternates pass / fail. Some arms are 2–1
 * splits or carry an invalid rep, so the majority rule is exercised. Two extra items must be
 * excluded: a tied uncued arm and an item with no gold label.
 */
function repsFor(cell: Table6Row): JudgeRepRow[] {
  const rows: JudgeRepRow[] = [];
  const push = (
    itemId: string,
    gold: BinaryVerdict | null,
    condition: string,
    verdicts: (BinaryVerdict | null)[],
    cueDirection: JudgeRepRow['cueDirection'] = null,
  ) =>
    verdicts.forEach((verdict, rep) =>
      rows.push({
        itemId,
        dataset: cell.dataset,
        judge: cell.judge,
        condition,
        cueDirection,
        rep,
        verdict,
        score: null,
        gold,
        dimension: 'task_success',
        turns: null,
        simulated: false,
      }),
    );
  for (const group of table6RepGroups(cell)) {
    push(group.itemId, group.gold, group.condition, group.verdicts, group.direction || null);
  }
  return rows;
}

const rows = TABLE_6.flatMap(repsFor);
const flips = flipRates(rows);
const accuracy = accuracyUnderCue(rows);
const percent = (rate: number | null) => (rate === null ? null : Math.round(100 * rate));
const percent1 = (rate: number | null) => (rate === null ? null : Math.round(1000 * rate) / 10);

describe('Table 6 reproduced from its own counts', () => {
  it.each(TABLE_6.map((cell) => [`${cell.judge} ${cell.dataset}`, cell] as const))(
    '%s',
    (_, cell) => {
      const flip = flips.find(
        (row) =>
          row.scope === 'judge-dataset' && row.judge === cell.judge && row.dataset === cell.dataset,
      );
      expect(flip).toMatchObject({
        n: cell.n,
        gate: cell.gate,
        harmful: cell.hf,
        wrong: cell.wrong,
        helpful: cell.help,
        excluded: { undetermined: 1, noGold: 1, noControl: 0, notOpposing: 0 },
      });
      expect(percent(flip?.harmfulFlipRate ?? null)).toBe(cell.hfPct);
      expect(percent(flip?.helpfulFlipRate ?? null)).toBe(cell.helpPct);
      const acc = accuracy.find(
        (row) =>
          row.scope === 'judge-dataset' && row.judge === cell.judge && row.dataset === cell.dataset,
      );
      expect(percent(acc?.before ?? null)).toBe(cell.accBefore);
      expect(percent(acc?.adversarial ?? null)).toBe(cell.accAdversarial);
      expect(percent(acc?.untargeted ?? null)).toBe(cell.accUntargeted);
    },
  );
});

describe('Table 5 reproduced as the per-judge pool of Table 6', () => {
  it.each(TABLE_5.map((row) => [row.judge, row] as const))('%s', (judge, expected) => {
    const acc = accuracy.find((row) => row.scope === 'judge' && row.judge === judge);
    expect(acc?.harmful).toBe(expected.hf);
    expect(acc?.helpful).toBe(expected.help);
    expect(Math.abs((acc?.n ?? 0) - TABLE_5_APPROX_N)).toBeLessThanOrEqual(5);
    expect(percent1(acc?.before ?? null)).toBe(expected.before);
    expect(percent1(acc?.adversarial ?? null)).toBe(expected.adversarial);
    expect(percent1(acc?.untargeted ?? null)).toBe(expected.untargeted);
  });

  it('App. C: Sonnet-4.6 on Terminal-Bench-2.0 has zero helpful flips, so adversarial = untargeted', () => {
    const acc = accuracy.find(
      (row) => row.judge === 'Sonnet-4.6' && row.dataset === 'terminal-bench-2',
    );
    expect(acc?.helpful).toBe(0);
    expect(acc?.adversarial).toBe(acc?.untargeted);
  });
});
