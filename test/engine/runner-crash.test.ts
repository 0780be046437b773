import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');

function start(
  args: string[],
  env: Record<string, string>,
): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: string | null; out: string }>;
} {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, out })),
  );
  return { child, done };
}

describe('a study killed with SIGKILL resumes without repeating work', () => {
  const dir = makeTempDir();
  let server: FakeModelServer;

  beforeAll(async () => {
    server = await startFakeModelServer({ latencyMs: 30 });
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('finishes every (condition, item, judge, rep) exactly once, and no stored call is made twice', async () => {
    const workspace = join(dir.path, 'ws');
    const env = {
      CUELAB_WORKSPACE: workspace,
      ANTHROPIC_API_KEY: 'test',
      // The fake server is a custom endpoint the user trusts.
      CUELAB_TRUSTED_ENDPOINTS: server.url,
    };
    const suite = join(root, 'test', 'fixtures', 'mini-suite.json');
    const imported = start(['suite', 'import', suite], env);
    expect((await imported.done).code).toBe(0);
    const specPath = join(dir.path, 'study.yaml');
    writeFileSync(
      specPath,
      [
        'name: crash test',
        'suite: fixture-suite',
        'judges:',
        `  - { id: fake, provider: anthropic, model: claude-sonnet-4-6, baseUrl: "${server.url}" }`,
        'reps: 3',
        'concurrency: { total: 1, containers: 1 }',
        '',
      ].join('\n'),
    );

    // Kill the engine the moment the 10th provider call arrives: with one rep in flight at a
    // time, the 9 calls before it have completed and been stored: 4 whole reps, and the first
    // call of the 5th, which the resumed run must answer from the store. The 10th was in
    // flight (never completed), so it is the one call made again.
    const judge = deferentialJudge();
    const first = start(['run', specPath], env);
    server.handle('anthropic', (request) => {
      if (server.callCount('anthropic') === 10) first.child.kill('SIGKILL');
      return judge(request);
    });
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const callsBeforeResume = server.callCount('anthropic');
    expect(callsBeforeResume).toBe(10);

    const db = new Database(join(workspace, 'cuelab.sqlite'), { readonly: true });
    const doneBefore = (
      db.prepare(`SELECT count(*) AS n FROM jobs WHERE state = 'done'`).get() as { n: number }
    ).n;
    expect(doneBefore).toBe(4);
    expect((db.prepare('SELECT count(*) AS n FROM provider_calls').get() as { n: number }).n).toBe(
      9,
    );

    server.handle('anthropic', judge);
    const resumed = start(['run', '--resume', 'latest'], env);
    const result = await resumed.done;
    expect(result.out).toContain('Requeued 1 rep left running by a stopped engine.');
    expect(result.out).toContain('Completed.');
    expect(result.code).toBe(0);

    const jobs = db
      .prepare(
        `SELECT condition_key, item_id, judge_id, rep, direction, state FROM jobs ORDER BY id`,
      )
      .all() as { state: string }[];
    expect(jobs).toHaveLength(12);
    expect(jobs.every((job) => job.state === 'done')).toBe(true);
    const duplicates = db
      .prepare(
        `SELECT count(*) AS n FROM (SELECT 1 FROM jobs GROUP BY study_id, condition_key, item_id, judge_id, rep, direction HAVING count(*) > 1)`,
      )
      .get() as { n: number };
    expect(duplicates.n).toBe(0);
    expect((db.prepare('SELECT count(*) AS n FROM judge_reps').get() as { n: number }).n).toBe(12);
    expect(
      (db.prepare('SELECT count(DISTINCT rep_id) AS n FROM jobs').get() as { n: number }).n,
    ).toBe(12);
    // 12 reps × 2 calls each = 24 distinct calls; only the one in flight at the kill was made again.
    expect((db.prepare('SELECT count(*) AS n FROM provider_calls').get() as { n: number }).n).toBe(
      24,
    );
    expect(server.callCount('anthropic')).toBe(24 + 1);
    db.close();
  });
});
