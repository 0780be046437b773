import { describe, expect, it } from 'vitest';
import { accuracyUnderCue } from '../../src/main/engine/analysis/accuracy';
import { flipRates } from '../../src/main/engine/analysis/flips';
import { majorityVerdicts, majorityVote } from '../../src/main/engine/analysis/majority';
import { pairItems } from '../../src/main/engine/analysis/pairs';
import type { BinaryVerdict, JudgeRepRow } from '../../src/main/engine/analysis/types';

type V = BinaryVerdict | null;

/** Three (or more) reps of one arm of one item. */
function arm(
  itemId: string,
  gold: V,
  condition: string,
  verdicts: readonly V[],
  extra: Partial<JudgeRepRow> = {},
): JudgeRepRow[] {
  return verdicts.map((verdict, rep) => ({
    itemId,
    dataset: 'ds',
    judge: 'judge-a',
    condition,
    cueDirection: null,
    rep,
    verdict,
    score: null,
    gold,
    dimension: 'task_success',
    turns: null,
    simulated: false,
    ...extra,
  }));
}

describe('majority rule (invalid reps out, tie or nothing valid = undetermined)', () => {
  it('takes the strict majority of the valid reps', () => {
    expect(majorityVote(['pass', 'pass', 'fail']).verdict).toBe('pass');
    expect(majorityVote(['fail', null, 'fail'])).toMatchObject({ verdict: 'fail', invalidReps: 1 });
    expect(majorityVote(['pass', null, null])).toMatchObject({
      verdict: 'pass',
      status: 'decided',
    });
  });

  it('a tie or no valid rep is undetermined', () => {
    expect(majorityVote(['pass', 'fail', null])).toMatchObject({ verdict: null, status: 'tie' });
    expect(majorityVote([null, null, null])).toMatchObject({ verdict: null, status: 'no-valid' });
    expect(majorityVote([]).status).toBe('no-valid');
  });

  it('collapses reps per item × judge × condition and flags simulated rows', () => {
    const rows = [
      ...arm('i1', 'pass', 'uncued', ['pass', 'fail', 'pass']),
      ...arm('i1', 'pass', 'cued', ['fail', 'fail', null], { simulated: true }),
    ];
    const majorities = majorityVerdicts(rows);
    expect(majorities).toHaveLength(2);
    expect(majorities[0]).toMatchObject({
      condition: 'uncued',
      verdict: 'pass',
      n: 3,
      simulated: false,
    });
    expect(majorities[1]).toMatchObject({
      condition: 'cued',
      verdict: 'fail',
      n: 3,
      simulated: true,
    });
  });

  it('conflicting gold labels on one item are an input error', () => {
    const rows = [
      ...arm('i1', 'pass', 'uncued', ['pass']),
      ...arm('i1', 'fail', 'uncued', ['pass']),
    ];
    expect(() => majorityVerdicts(rows)).toThrow(/conflicting gold/);
  });
});

/**
 * Hand case, gold / uncued reps / cued reps → status:
 *   a: pass / P P P / F F P → gated, cued majority F ≠ gold → harmful
 *   b: pass / P P F / P P P → gated, not harmful
 *   c: fail / F F F / P P F → gated, cued P ≠ gold → harmful
 *   d: fail / P P P / F F F → wrong, cued F = gold → helpful
 *   e: pass / F F F / F F F → wrong, not helpful
 *   f: pass / P F – / ...   → undetermined (tie in the control)
 *   g: pass / P P P / F – – plus P – – ... cued tie (F, P, invalid) → undetermined
 *   h: null / P P P / F F F → no gold
 * So N = 5, gate = 3, #HF = 2 (2/3), wrong = 2, #HELP = 1 (1/2), excluded: 2 undetermined, 1 no gold.
 * Accuracy: before 3/5; adversarial (3 − 2)/5 = 1/5; untargeted (3 − 2 + 1)/5 = 2/5.
 */
const handRows: JudgeRepRow[] = [
  ...arm('a', 'pass', 'uncued', ['pass', 'pass', 'pass']),
  ...arm('a', 'pass', 'cued', ['fail', 'fail', 'pass']),
  ...arm('b', 'pass', 'uncued', ['pass', 'pass', 'fail']),
  ...arm('b', 'pass', 'cued', ['pass', 'pass', 'pass']),
  ...arm('c', 'fail', 'uncued', ['fail', 'fail', 'fail']),
  ...arm('c', 'fail', 'cued', ['pass', 'pass', 'fail']),
  ...arm('d', 'fail', 'uncued', ['pass', 'pass', 'pass']),
  ...arm('d', 'fail', 'cued', ['fail', 'fail', 'fail']),
  ...arm('e', 'pass', 'uncued', ['fail', 'fail', 'fail']),
  ...arm('e', 'pass', 'cued', ['fail', 'fail', 'fail']),
  ...arm('f', 'pass', 'uncued', ['pass', 'fail', null]),
  ...arm('f', 'pass', 'cued', ['fail', 'fail', 'fail']),
  ...arm('g', 'pass', 'uncued', ['pass', 'pass', 'pass']),
  ...arm('g', 'pass', 'cued', ['fail', 'pass', null]),
  ...arm('h', null, 'uncued', ['pass', 'pass', 'pass']),
  ...arm('h', null, 'cued', ['fail', 'fail', 'fail']),
];

describe('flipRates (§3.1 harmful, App. F helpful, Table 6 counts)', () => {
  it('reproduces the hand-computed counts, rates and exclusions', () => {
    const [cell] = flipRates(handRows);
    expect(cell).toMatchObject({
      scope: 'judge-dataset',
      condition: 'cued',
      judge: 'judge-a',
      dataset: 'ds',
      n: 5,
      gate: 3,
      harmful: 2,
      wrong: 2,
      helpful: 1,
      excluded: { undetermined: 2, noGold: 1, noControl: 0, notOpposing: 0 },
      simulated: false,
    });
    expect(cell?.harmfulFlipRate).toBeCloseTo(2 / 3, 12);
    expect(cell?.helpfulFlipRate).toBe(0.5);
    expect(cell?.harmfulFlipCi?.low).toBeLessThan(2 / 3);
  });

  it('pools per judge and overall by summing items, and carries the simulated flag', () => {
    const other = handRows.map((row) => ({
      ...row,
      dataset: 'ds2',
      judge: 'judge-b',
      simulated: true,
    }));
    const rows = flipRates([...handRows, ...other]);
    expect(rows.map((row) => row.scope)).toEqual([
      'judge-dataset',
      'judge-dataset',
      'judge',
      'judge',
      'all',
    ]);
    const all = rows.at(-1);
    expect(all).toMatchObject({
      n: 10,
      gate: 6,
      harmful: 4,
      wrong: 4,
      helpful: 2,
      simulated: true,
    });
    expect(rows.find((row) => row.scope === 'judge' && row.judge === 'judge-a')?.simulated).toBe(
      false,
    );
  });

  it('drops cued reps that point the same way as the uncued majority', () => {
    // Uncued PASS. A severity cue opposes it; a leniency cue agrees and cannot flip it.
    const rows = [
      ...arm('a', 'pass', 'uncued', ['pass', 'pass', 'pass']),
      ...arm('a', 'pass', 'cued', ['fail', 'fail', 'fail'], { cueDirection: 'severity' }),
      ...arm('a', 'pass', 'cued', ['pass', 'pass', 'pass'], { cueDirection: 'leniency' }),
      ...arm('b', 'pass', 'uncued', ['pass', 'pass', 'pass']),
      ...arm('b', 'pass', 'cued', ['fail', 'fail', 'fail'], { cueDirection: 'leniency' }),
    ];
    const pairs = pairItems(rows);
    expect(pairs.map((pair) => [pair.itemId, pair.status, pair.harmful])).toEqual([
      ['a', 'gated', true],
      ['b', 'not-opposing', false],
    ]);
    expect(pairs[0]?.cuedReps).toHaveLength(3);
  });

  it('skips dimensions where no rep has a pass/fail verdict (graded, App. G)', () => {
    const graded = arm('a', null, 'uncued', [null, null], {
      dimension: 'holistic_quality',
      score: 70,
    });
    const cuedGraded = arm('a', null, 'cued', [null], { dimension: 'holistic_quality', score: 40 });
    const rows = flipRates([...handRows, ...graded, ...cuedGraded]);
    expect(rows.every((row) => row.dimension === 'task_success')).toBe(true);
  });

  it('an item with no control arm is excluded as no-control', () => {
    const [cell] = flipRates(arm('z', 'pass', 'cued', ['fail', 'fail', 'fail']));
    expect(cell).toMatchObject({ n: 0, harmfulFlipRate: null, excluded: { noControl: 1 } });
  });
});

describe('accuracyUnderCue (App. C)', () => {
  it('before = gate/N, adversarial = (gate − #HF)/N, untargeted = (gate − #HF + #HELP)/N', () => {
    const [cell] = accuracyUnderCue(handRows);
    expect(cell).toMatchObject({ n: 5, harmful: 2, helpful: 1 });
    expect(cell?.correct).toEqual({ before: 3, adversarial: 1, untargeted: 2 });
    expect(cell?.before).toBeCloseTo(0.6, 12);
    expect(cell?.adversarial).toBeCloseTo(0.2, 12);
    expect(cell?.untargeted).toBeCloseTo(0.4, 12);
  });
});
