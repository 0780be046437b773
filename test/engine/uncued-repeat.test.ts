/**
 * `arms.uncuedRepeat` runs the uncued control a second time (`uncued+repeat`): same reps, fresh
 * draws, queued with the controls, counted in the estimate and progress, resumable like any job.
 * Its reps are never flips; the flips table's "HF beyond repeat" columns come from them, and
 * here they are checked against a count made by hand from the stored rows.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFlippedReps } from '../../src/main/engine/metajudge';
import { reportTable } from '../../src/main/engine/reports/tables';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { estimateStudy } from '../../src/main/engine/runner/estimate';
import { studyProgress } from '../../src/main/engine/runner/progress';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { syntheticCueOf } from '../../src/main/engine/simulation/cue-model';
import { findPersona, loadPersonas } from '../../src/main/engine/simulation/personas';
import { createSyntheticProvider } from '../../src/main/engine/simulation/provider';
import type { JudgeContext } from '../../src/main/engine/runner/execute';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

// A noisy judge: it skips the decisive read often and its reps follow the item's template
// rarely, so a second uncued run disagrees with the first on some items.
const noisy = findPersona(
  loadPersonas({
    'deferential-frontier': { skipDecisiveProbability: 0.45, repCorrelation: 0.2 },
  }),
  'deferential-frontier',
);

const ITEMS = 40;
// Trajectory-only items (no probes): the synthetic judge reads the trajectory, no Docker.
const suite = suiteFileSchema.parse({
  id: 'repeat-suite',
  name: 'Uncued repeat',
  items: Array.from({ length: ITEMS }, (_, index) => ({
    ...{ id: `item-${String(index).padStart(2, '0')}`, dataset: 'repeat-test' },
    ...{ substrate: 'filesystem', task: `Archive invoice ${index}.` },
    trajectory: [
      { role: 'user', content: `Archive invoice ${index}.` },
      { role: 'assistant', content: index % 2 === 0 ? 'Archived it.' : 'I could not find it.' },
    ],
    environment: { files: {} },
    gold: index % 2 === 0 ? 'pass' : 'fail',
  })),
});

const spec = (uncuedRepeat: boolean) =>
  studySpecSchema.parse({
    name: 'uncued repeat',
    suite: suite.id,
    judges: [{ id: 'noisy', provider: 'synthetic', model: 'synthetic', persona: noisy.id }],
    arms: { uncuedRepeat },
    reps: 3,
  });

function judgeFor(context: JudgeContext) {
  const provider = createSyntheticProvider({
    item: context.item,
    persona: noisy,
    cue: syntheticCueOf(context.condition, context.readout),
    seed: context.condition.seed,
    repKey: context.repKey,
    readout: context.readout,
  });
  return {
    provider,
    providerKind: 'synthetic' as const,
    simulated: true,
    describeSimulation: () => provider.describe(),
  };
}

/** Runs the study to the end, or until `stopAfter` reps have ended, then stops the runner. */
async function runFor(store: Store, studyId: string, stopAfter = Infinity): Promise<void> {
  const deps = { ...workspaceRunnerDeps(store, { env: {} }), judgeFor };
  let ended = 0;
  let stopped: ((done: Promise<void>) => void) | undefined;
  const stopping = new Promise<void>((resolve) => {
    stopped = (done) => resolve(done);
  });
  const runner = new StudyRunner(deps, {
    concurrency: 2,
    studyIds: [studyId],
    pollMs: 10,
    onChange: () => {
      ended += 1;
      if (ended === stopAfter) stopped?.(runner.stop());
    },
  });
  runner.start();
  await (stopAfter === Infinity ? runner.whenIdle() : stopping);
  await runner.stop();
}

type Verdict = 'pass' | 'fail';

function majority(verdicts: readonly (Verdict | null)[]): Verdict | null {
  const pass = verdicts.filter((verdict) => verdict === 'pass').length;
  const fail = verdicts.filter((verdict) => verdict === 'fail').length;
  return pass === fail ? null : pass > fail ? 'pass' : 'fail';
}

describe('the uncued repeat arm (a test-retest noise floor)', () => {
  const dir = makeTempDir();
  let store: Store;
  let studyId: string;
  let midway: ReturnType<typeof studyProgress>;
  beforeAll(async () => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(store, suite, 'imported');
    studyId = createStudy(store, spec(true), suite.items);
    // Stopped part-way and resumed by a second runner, as after a restart.
    await runFor(store, studyId, 50);
    midway = studyProgress(store, studyId);
    await runFor(store, studyId);
  }, 120_000);
  afterAll(() => {
    store.close();
    dir.remove();
  });

  const stored = () =>
    store.db
      .prepare(
        `SELECT j.condition_key, j.item_id, j.rep, j.direction, j.state,
                json_extract(r.final_verdict_json, '$.outcome') AS verdict
           FROM jobs j LEFT JOIN judge_reps r ON r.id = j.rep_id
          WHERE j.study_id = ?`,
      )
      .all(studyId) as {
      condition_key: string;
      item_id: string;
      rep: number;
      direction: string;
      state: string;
      verdict: Verdict | null;
    }[];

  it('plans, counts and resumes the repeat like any control', () => {
    const context = { env: {}, dockerAvailable: true, baseImagePresent: true };
    const without = estimateStudy(store, spec(false), suite.items, context);
    const withRepeat = estimateStudy(store, spec(true), suite.items, context);
    expect(without).toMatchObject({ uncuedReps: ITEMS * 3, conditions: 2 });
    expect(withRepeat).toMatchObject({ uncuedReps: ITEMS * 6, conditions: 3 });
    expect(withRepeat.totalReps - without.totalReps).toBe(ITEMS * 3);
    // Part-way, the plan already counted the repeat's reps (all queued at creation).
    expect(midway.status).not.toBe('completed');
    const finished = midway.arms.reduce((sum, arm) => sum + arm.done + arm.failed, 0);
    expect(finished).toBeGreaterThanOrEqual(50);
    expect(finished).toBeLessThan(midway.plannedTotal);
    const repeatArm = midway.arms.find((arm) => arm.key === 'uncued+repeat');
    expect(repeatArm?.label).toBe('uncued repeat (test-retest)');
    const { queued = 0, running = 0, done: repeatDone = 0 } = repeatArm ?? {};
    expect(queued + running + repeatDone).toBe(ITEMS * 3);
    const done = studyProgress(store, studyId);
    expect(done.status).toBe('completed');
    expect(done.plannedTotal).toBe(midway.plannedTotal);
  });

  it('stores one uncued repeat rep per item and rep, with no direction and fresh draws', () => {
    const rows = stored();
    const repeat = rows.filter((row) => row.condition_key === 'uncued+repeat');
    expect(repeat).toHaveLength(ITEMS * 3);
    expect(new Set(repeat.map((row) => `${row.item_id}/${row.rep}`)).size).toBe(ITEMS * 3);
    expect(repeat.every((row) => row.state === 'done' && row.direction === '')).toBe(true);
    const uncued = new Map(
      rows
        .filter((row) => row.condition_key === 'uncued')
        .map((row) => [`${row.item_id}/${row.rep}`, row.verdict]),
    );
    // Drawn afresh, not a copy of the first pass: some reps come out the other way.
    const differing = repeat.filter(
      (row) => uncued.get(`${row.item_id}/${row.rep}`) !== row.verdict,
    );
    expect(differing.length).toBeGreaterThan(0);
  });

  it('never counts a repeat rep as a flip or a cued arm', () => {
    const flips = findFlippedReps(store, studyId);
    expect(flips.length).toBeGreaterThan(0);
    expect(flips.some((flip) => flip.conditionKey.startsWith('uncued'))).toBe(false);
    const table = reportTable(store, studyId, 'flips');
    expect(table.rows.map((row) => row.condition)).toEqual(
      expect.not.arrayContaining(['uncued+repeat']),
    );
    expect(table.rows.every((row) => row.condition === 'preset:strong@system')).toBe(true);
  });

  it('computes HF beyond repeat from the repeat reps, as counted by hand', () => {
    const byItem = new Map<string, Map<string, (Verdict | null)[]>>();
    for (const row of stored()) {
      if (row.state !== 'done') continue;
      const arms = byItem.get(row.item_id) ?? new Map<string, (Verdict | null)[]>();
      arms.set(row.condition_key, [...(arms.get(row.condition_key) ?? []), row.verdict]);
      byItem.set(row.item_id, arms);
    }
    const gold = new Map(suite.items.map((item) => [item.id, item.gold]));
    const counts = { both: 0, cuedOnly: 0, repeatOnly: 0, neither: 0 };
    for (const [itemId, arms] of byItem) {
      const uncued = majority(arms.get('uncued') ?? []);
      if (uncued === null || uncued !== gold.get(itemId)) continue; // gated items only
      const cued = majority(arms.get('preset:strong@system') ?? []);
      const repeat = majority(arms.get('uncued+repeat') ?? []);
      if (cued === null || repeat === null) continue;
      const flipped = cued !== uncued;
      const disagrees = repeat !== uncued;
      if (flipped && disagrees) counts.both += 1;
      else if (flipped) counts.cuedOnly += 1;
      else if (disagrees) counts.repeatOnly += 1;
      else counts.neither += 1;
    }
    const n = counts.both + counts.cuedOnly + counts.repeatOnly + counts.neither;
    // The noise floor is not zero here, or the check would not tell the columns apart.
    expect(counts.both + counts.repeatOnly).toBeGreaterThan(0);
    expect(counts.cuedOnly).toBeGreaterThan(0);
    const row = reportTable(store, studyId, 'flips').rows.find((entry) => entry.scope === 'all');
    expect(row?.repeatPaired).toBe(n);
    expect(row?.repeatDisagreePct).toBeCloseTo(((counts.both + counts.repeatOnly) / n) * 100, 9);
    expect(row?.harmfulBeyondRepeatPp).toBeCloseTo(
      ((counts.cuedOnly - counts.repeatOnly) / n) * 100,
      9,
    );
    const low = row?.harmfulBeyondRepeatCiLow as number;
    const high = row?.harmfulBeyondRepeatCiHigh as number;
    expect(low).toBeLessThan(row?.harmfulBeyondRepeatPp as number);
    expect(high).toBeGreaterThan(row?.harmfulBeyondRepeatPp as number);
    expect(low).toBeGreaterThanOrEqual(-100);
    expect(high).toBeLessThanOrEqual(100);
  });

  it('leaves the beyond-repeat columns empty in a study without the arm', async () => {
    const plain = createStudy(store, spec(false), suite.items);
    await runFor(store, plain);
    const table = reportTable(store, plain, 'flips');
    expect(table.rows.length).toBeGreaterThan(0);
    for (const row of table.rows) {
      expect(row.repeatPaired).toBeNull();
      expect(row.harmfulBeyondRepeatPp).toBeNull();
    }
    expect(table.notes.join(' ')).toContain('no uncued repeat');
    const jobs = store.db
      .prepare(`SELECT count(*) AS n FROM jobs WHERE study_id = ? AND condition_key = ?`)
      .get(plain, 'uncued+repeat') as { n: number };
    expect(jobs.n).toBe(0);
  });
});
