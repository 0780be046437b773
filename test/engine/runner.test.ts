import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { uncuedMajority } from '../../src/main/engine/runner/scheduling';
import { studyProgress } from '../../src/main/engine/store/study-state';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema, type StudySpecInput } from '../../src/shared/study-spec';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

describe('the study runner on a real SQLite workspace', () => {
  let server: FakeModelServer;
  let engine: Engine;
  let dir: ReturnType<typeof makeTempDir>;

  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    dir?.remove();
    engine?.close();
    dir = makeTempDir();
    engine = createEngine({ path: dir.path, source: 'flag' });
    saveSuite(
      engineStore(engine),
      loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
      'imported',
    );
    server.handle('anthropic', deferentialJudge());
  });

  const spec = (overrides: Partial<StudySpecInput> = {}) =>
    studySpecSchema.parse({
      name: 'runner test',
      suite: 'fixture-suite',
      judges: [
        { id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: server.url },
      ],
      reps: 3,
      concurrency: { total: 3, containers: 3 },
      ...overrides,
    });

  async function run(studySpec: ReturnType<typeof spec>, env = { ANTHROPIC_API_KEY: 'test' }) {
    const id = createStudy(
      engineStore(engine),
      studySpec,
      listSuiteItems(engineStore(engine), 'fixture-suite'),
    );
    const runner = new StudyRunner(
      workspaceRunnerDeps(engineStore(engine), {
        env,
        // The fake server is a custom endpoint: the user's consent.
        trust: { endpoints: [server.url], keyEnvNames: [] },
      }),
      {
        concurrency: 3,
        studyIds: [id],
        pollMs: 20,
      },
    );
    runner.start();
    await runner.whenIdle();
    await runner.stop();
    return id;
  }

  const count = (sql: string, ...params: unknown[]) =>
    (
      engineStore(engine)
        .db.prepare(sql)
        .get(...params) as { n: number }
    ).n;

  it('runs the paired design: uncued reps, the majority, then cued reps opposite it', async () => {
    const id = await run(spec());
    const progress = studyProgress(engineStore(engine), id);
    expect(progress.status).toBe('completed');
    expect(progress.arms.map((arm) => [arm.key, arm.done])).toEqual([
      ['uncued', 6],
      ['preset:strong@system', 6],
    ]);
    const majorities = engineStore(engine)
      .db.prepare(
        'SELECT item_id, majority, valid_reps FROM study_majorities WHERE study_id = ? ORDER BY item_id',
      )
      .all(id);
    expect(majorities).toEqual([
      { item_id: 'db-count-01', majority: 'pass', valid_reps: 3 },
      { item_id: 'fs-logs-01', majority: 'pass', valid_reps: 3 },
    ]);
    expect(
      count(`SELECT count(*) AS n FROM jobs WHERE study_id = ? AND direction = 'severity'`, id),
    ).toBe(6);
    expect(count(`SELECT count(*) AS n FROM judge_reps WHERE study_id = ?`, id)).toBe(12);
    // Every cued rep ran after its item's uncued reps: the majority existed when it was queued.
    const firstCued = count(
      `SELECT min(id) AS n FROM jobs WHERE study_id = ? AND direction <> ''`,
      id,
    );
    const lastUncued = count(
      `SELECT max(id) AS n FROM jobs WHERE study_id = ? AND direction = ''`,
      id,
    );
    expect(firstCued).toBeGreaterThan(lastUncued);
    const cuedVerdicts = engineStore(engine)
      .db.prepare(
        `SELECT DISTINCT json_extract(r.final_verdict_json, '$.outcome') AS outcome FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
          WHERE j.study_id = ? AND j.direction = 'severity'`,
      )
      .all(id);
    expect(cuedVerdicts).toEqual([{ outcome: 'fail' }]);
  });

  it('queues both directions at once under the "both" policy', async () => {
    const id = await run(spec({ direction: 'both', reps: 1 }));
    expect(count(`SELECT count(*) AS n FROM jobs WHERE study_id = ? AND state = 'done'`, id)).toBe(
      2 + 2 * 2,
    );
  });

  it('pauses the study with the reason when the key is rejected, losing nothing', async () => {
    const id = await run(spec({ reps: 1 }), { ANTHROPIC_API_KEY: '' });
    const progress = studyProgress(engineStore(engine), id);
    expect(progress.status).toBe('paused');
    expect(progress.pausedReason).toContain('ANTHROPIC_API_KEY');
    expect(progress.arms[0]).toMatchObject({ key: 'uncued', queued: 2, done: 0, failed: 0 });
  });

  it('pauses at the cost cap with a clear reason', async () => {
    const id = await run(
      spec({ reps: 3, costCapUsd: 0.000001, concurrency: { total: 1, containers: 1 } }),
    );
    const progress = studyProgress(engineStore(engine), id);
    expect(progress.status).toBe('paused');
    expect(progress.pausedReason).toMatch(/^cost cap reached: \$0\.00 spent of the \$0\.00 cap/);
    expect(progress.done).toBeGreaterThanOrEqual(1);
    expect(progress.done).toBeLessThan(progress.total);
  });

  it('applies the documented tie and invalid rule for majorities', () => {
    expect(
      uncuedMajority([
        { verdict: 'pass', score: null },
        { verdict: 'fail', score: null },
        { verdict: null, score: null },
      ]),
    ).toMatchObject({
      majority: null,
      valid: 2,
      note: 'tie: 1 pass, 1 fail',
    });
    expect(uncuedMajority([{ verdict: null, score: null }])).toMatchObject({
      majority: null,
      note: 'no uncued rep gave a valid verdict',
    });
    expect(
      uncuedMajority([
        { verdict: 'fail', score: null },
        { verdict: 'fail', score: null },
        { verdict: 'pass', score: null },
      ]),
    ).toMatchObject({ majority: 'fail', valid: 3 });
  });
});
