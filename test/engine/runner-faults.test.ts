import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/main/cli/run';
import { claimJob, requeueOrphanedJobs } from '../../src/main/engine/store/jobs';
import { studyProgress } from '../../src/main/engine/store/study-state';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, shellJudge, workspaceIn, type FaultStudy } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

// What can never succeed is not retried, one garbled answer fails only
// that call, a crash does not use up attempts, and status tells retries and outcomes apart.
let server: FakeModelServer;
const dirs: ReturnType<typeof makeTempDir>[] = [];
const studies: FaultStudy[] = [];

beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.handle('anthropic', undefined);
  while (studies.length) studies.pop()?.engine.close();
  while (dirs.length) dirs.pop()?.remove();
});

function newStudy(items = 2, spec = {}): FaultStudy {
  const dir = makeTempDir();
  dirs.push(dir);
  const study = createFaultStudy(workspaceIn(dir.path), {
    items,
    baseUrl: server.url,
    spec: { arms: { cues: [] }, ...spec },
  });
  studies.push(study);
  return study;
}

async function runToIdle(study: FaultStudy): Promise<void> {
  const runner = study.runner();
  runner.start();
  await runner.whenIdle();
  await runner.stop();
}

function jobs(study: FaultStudy) {
  return engineStore(study.engine)
    .db.prepare(
      'SELECT item_id, state, attempts, last_error FROM jobs WHERE study_id = ? ORDER BY id',
    )
    .all(study.studyId) as {
    item_id: string;
    state: string;
    attempts: number;
    last_error: string | null;
  }[];
}

describe('provider errors that can never succeed', () => {
  it.each([
    [
      '400 invalid request',
      reply.error(400, { message: 'tools.0.name: bad name' }),
      /rejected the request \(400/,
    ],
    [
      'a prompt past the context window',
      reply.error(400, { message: 'prompt is too long: 250000 tokens > 200000 maximum' }),
      /cannot take a prompt this long/,
    ],
  ])('%s fails that rep for good after one call; the study goes on', async (_name, error, said) => {
    const study = newStudy(2);
    const judge = shellJudge(false);
    let calls = 0;
    server.handle('anthropic', (request) => {
      calls += 1;
      return calls === 1 ? error : judge(request);
    });
    await runToIdle(study);
    expect(calls).toBe(1 + 2); // the bad call once, then item-2's two calls
    const [first, second] = jobs(study);
    expect(first).toMatchObject({ state: 'failed', attempts: 1 });
    expect(first?.last_error).toMatch(said);
    expect(second).toMatchObject({ state: 'done' });
    const progress = studyProgress(engineStore(study.engine), study.studyId);
    expect(progress.status).toBe('completed');
    expect(progress.failures).toHaveLength(1);
  });

  it.each([
    ['401', 401, /rejected the API key/],
    ['403', 403, /refused access/],
    ['404', 404, /does not know model/],
  ])(
    '%s pauses the study after one call, with the reason, losing nothing',
    async (_n, status, said) => {
      const study = newStudy(2);
      let calls = 0;
      server.handle('anthropic', () => {
        calls += 1;
        return reply.error(status, { message: 'no' });
      });
      await runToIdle(study);
      expect(calls).toBe(1);
      const progress = studyProgress(engineStore(study.engine), study.studyId);
      expect(progress.status).toBe('paused');
      expect(progress.pausedReason).toMatch(said);
      expect(jobs(study).map((job) => [job.state, job.attempts])).toEqual([
        ['queued', 0],
        ['queued', 0],
      ]);
    },
  );
});

describe('an uncued control that fails for good as the last open job', () => {
  it('still queues and runs the cued arm its majority opens before the study completes', async () => {
    // Three uncued reps: two pass, the third fails for good (a 400). The two that finished
    // fix the majority, which opens the cued arm; the study must not complete before it runs.
    const study = newStudy(1, {
      reps: 3,
      arms: { cues: [{ kind: 'preset', preset: 'strong' }], placements: ['system'] },
    });
    const judge = shellJudge(false);
    let calls = 0;
    server.handle('anthropic', (request) => {
      calls += 1;
      return calls === 5 ? reply.error(400, { message: 'tools.0.name: bad name' }) : judge(request);
    });
    await runToIdle(study);
    const store = engineStore(study.engine);
    const states = store.db
      .prepare(`SELECT condition_key AS condition, state FROM jobs WHERE study_id = ? ORDER BY id`)
      .all(study.studyId) as { condition: string; state: string }[];
    const uncued = states.filter((job) => job.condition.startsWith('uncued'));
    const cued = states.filter((job) => !job.condition.startsWith('uncued'));
    expect(uncued.map((job) => job.state).sort()).toEqual(['done', 'done', 'failed']);
    expect(cued.length).toBeGreaterThan(0);
    expect(cued.map((job) => job.state)).toEqual(cued.map(() => 'done'));
    expect(studyProgress(store, study.studyId).status).toBe('completed');
  });
});

describe('a malformed provider body', () => {
  it.each([
    ['garbage JSON', reply.garbage()],
    ['a message without its fields', reply.raw(200, { type: 'message', role: 'assistant' })],
  ])('(%s) fails only that call: it is retried and the study completes', async (_n, bad) => {
    const study = newStudy(2);
    const judge = shellJudge(false);
    let calls = 0;
    server.handle('anthropic', (request) => {
      calls += 1;
      return calls === 2 ? bad : judge(request);
    });
    await runToIdle(study);
    expect(calls).toBe(4 + 1);
    expect(jobs(study).map((job) => job.state)).toEqual(['done', 'done']);
    expect(studyProgress(engineStore(study.engine), study.studyId).status).toBe('completed');
  });
});

describe('an endpoint that only ever answers garbage', () => {
  it('pauses the study once the retries of one call are used up (a wrong base URL)', async () => {
    const study = newStudy(2);
    let calls = 0;
    server.handle('anthropic', () => {
      calls += 1;
      return reply.garbage('<html>not an API</html>');
    });
    await runToIdle(study);
    expect(calls).toBe(6); // callWithRetry's attempts for the first call, then the pause
    const progress = studyProgress(engineStore(study.engine), study.studyId);
    expect(progress.status).toBe('paused');
    expect(progress.pausedReason).toMatch(/could not read/);
    expect(jobs(study).map((job) => job.state)).toEqual(['queued', 'queued']);
  });
});

describe('a crashed runner', () => {
  it('does not use up an attempt: requeued or taken over, the attempt count stays', () => {
    const study = newStudy(1);
    const store = engineStore(study.engine);
    const deadPid = 2 ** 22 + 12345; // above pid_max: never alive
    const limits = { perJudge: {} };
    expect(claimJob(store, deadPid, 30_000, limits)?.attempts).toBe(1);
    expect(requeueOrphanedJobs(store, () => false)).toBe(1);
    expect(jobs(study)[0]).toMatchObject({ state: 'queued', attempts: 0 });
    // A lease that ran out (the worker died without anyone requeueing) is taken over as the
    // same attempt.
    expect(claimJob(store, deadPid, 10, limits, 1000)?.attempts).toBe(1);
    expect(claimJob(store, process.pid, 30_000, limits, 5000)?.attempts).toBe(1);
    expect(jobs(study)[0]).toMatchObject({ state: 'running', attempts: 1 });
  });
});

describe('status', () => {
  it('shows retries in progress with their error', async () => {
    const study = newStudy(1);
    server.handle('anthropic', () => reply.error(500, { message: 'boom' }));
    const runner = study.runner({ maxAttempts: 3 });
    runner.start();
    // callWithRetry tries 6 times, then the runner queues the job again after a backoff.
    for (let tries = 0; tries < 200; tries += 1) {
      if (studyProgress(engineStore(study.engine), study.studyId).retrying === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await runner.stop();
    const progress = studyProgress(engineStore(study.engine), study.studyId);
    expect(progress.retrying).toBe(1);
    expect(progress.retries[0]).toMatchObject({ itemId: 'item-1', attempts: 1 });
    expect(progress.retries[0]?.error).toMatch(/server error \(500/);
    expect(progress.done).toBe(0);
  });

  it('separates budget_exhausted and invalid_verdict from verdicts', async () => {
    const study = newStudy(3);
    const judge = shellJudge(false);
    let item = 0;
    server.handle('anthropic', (request) => {
      const body = JSON.stringify(request.body);
      if (!body.includes('tool_result') && !body.includes('did not contain a valid verdict'))
        item += 1;
      if (item === 1) return reply.toolCall('list_dir', { path: '.' }); // never decides
      if (item === 2) return reply.text('I think it is fine.'); // never a verdict
      return judge(request);
    });
    await runToIdle(study);
    const progress = studyProgress(engineStore(study.engine), study.studyId);
    expect(progress.done).toBe(3);
    expect(progress.outcomes).toEqual({ verdict: 1, invalidVerdict: 1, budgetExhausted: 1 });
  });
});

describe('cuelab run', () => {
  it('exits non-zero and says why when the study ends paused', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const spec = join(dir.path, 'study.yaml');
    writeFileSync(
      spec,
      [
        'name: paused run',
        'suite: fixture-suite',
        'judges:',
        `  - { id: fake, provider: anthropic, model: claude-sonnet-4-6, baseUrl: "${server.url}" }`,
        'reps: 1',
        'arms: { cues: [] }',
        '',
      ].join('\n'),
    );
    server.handle('anthropic', () => reply.error(401, { message: 'invalid x-api-key' }));
    const suite = join(__dirname, '..', 'fixtures', 'mini-suite.json');
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
    const { suiteCommand } = await import('../../src/main/cli/suite');
    const workspace = workspaceIn(dir.path);
    expect(await suiteCommand.run(['import', suite, '--workspace', workspace], io)).toBe(0);
    const code = await runCommand.run(
      [spec, '--workspace', workspace, '--trust-endpoint', server.url],
      io,
    );
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(/Paused: judge fake: .*ANTHROPIC_API_KEY/);
  });
});
