import Docker from 'dockerode';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';
import { realDockerSocket, startDockerProxy, type DockerProxy } from '../helpers/docker-proxy';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, shellJudge, workspaceIn } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';

// Docker's health is a condition of the study: an absent daemon pauses the study with the
// reason and spends no rep; it resumes when Docker is back; a slow one is asked again. The
// engine under test reaches Docker through a proxy socket the test cuts and restores, so the
// machine's shared daemon keeps running for everyone else.
const docker = new Docker({ socketPath: realDockerSocket() });
let available = false;
let image = '';
let server: FakeModelServer;
let proxy: DockerProxy;
const proxyDir = makeTempDir('cuelab-docker-proxy-');
const dirs: ReturnType<typeof makeTempDir>[] = [];
const savedHost = process.env.DOCKER_HOST;

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  server = await startFakeModelServer();
  if (available) image = await busyboxImage(docker);
  proxy = await startDockerProxy(proxyDir.path);
  // Every Docker client the engine makes from here on goes through the proxy.
  process.env.DOCKER_HOST = proxy.host;
});
afterAll(async () => {
  if (savedHost === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = savedHost;
  await proxy.close();
  await server.close();
  proxyDir.remove();
});
afterEach(async () => {
  server.handle('anthropic', undefined);
  await proxy.restore();
  while (dirs.length) dirs.pop()?.remove();
});

function needDocker(context: TestContext): void {
  if (!available) context.skip('Docker is not available');
}

/** A runner over `studyId` in an engine opened on `workspace`, as a restarted engine has. */
function runnerOn(engine: Engine, studyId: string) {
  return new StudyRunner(
    {
      ...workspaceRunnerDeps(engineStore(engine), {
        env: { ANTHROPIC_API_KEY: 'test' },
        trust: { endpoints: [server.url], keyEnvNames: [] },
      }),
      retry: { baseDelayMs: 20, maxDelayMs: 200 },
    },
    { concurrency: 2, studyIds: [studyId], pollMs: 20, dockerRecheckMs: 200 },
  );
}

function studyRow(engine: Engine, studyId: string) {
  return engineStore(engine)
    .db.prepare('SELECT status, paused_reason FROM studies WHERE id = ?')
    .get(studyId) as { status: string; paused_reason: string | null };
}

function jobRows(engine: Engine, studyId: string) {
  return engineStore(engine)
    .db.prepare('SELECT state, attempts, last_error FROM jobs WHERE study_id = ? ORDER BY id')
    .all(studyId) as { state: string; attempts: number; last_error: string | null }[];
}

function repOutcomes(engine: Engine, studyId: string): string[] {
  return (
    engineStore(engine)
      .db.prepare('SELECT outcome FROM judge_reps WHERE study_id = ?')
      .all(studyId) as { outcome: string }[]
  ).map((row) => row.outcome);
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Docker down during a study', () => {
  it('pauses the study with the reason across an engine restart, spends no rep, and completes once Docker is back', async (context) => {
    needDocker(context);
    const dir = makeTempDir();
    dirs.push(dir);
    const workspace = workspaceIn(dir.path);
    // A study in progress (queued, running) whose engine went away.
    const created = createFaultStudy(workspace, {
      image,
      items: 3,
      baseUrl: server.url,
      spec: { arms: { cues: [] }, concurrency: { total: 2, containers: 2 } },
    });
    const { studyId } = created;
    created.engine.close();
    server.handle('anthropic', shellJudge());

    // Docker stops; the engine starts again and its runner takes up the study.
    await proxy.cut();
    const first = createEngine({ path: workspace, source: 'flag' });
    const runner = runnerOn(first, studyId);
    runner.start();
    await until(() => studyRow(first, studyId).status === 'paused', 60_000, 'the pause');
    await runner.stop();
    const paused = studyRow(first, studyId);
    expect(paused.paused_reason).toMatch(/^Docker is not running \(/);
    expect(paused.paused_reason).toContain('no Docker socket');
    expect(paused.paused_reason).toContain('resumes by itself when Docker answers again');
    // No rep spent: every job is queued with no attempt counted, nothing stored or failed.
    expect(jobRows(first, studyId)).toEqual(
      Array.from({ length: 3 }, () => ({ state: 'queued', attempts: 0, last_error: null })),
    );
    expect(repOutcomes(first, studyId)).toEqual([]);
    first.close();

    // Restarted again with Docker still stopped: still paused, with the reason, not Completed.
    const second = createEngine({ path: workspace, source: 'flag' });
    const again = runnerOn(second, studyId);
    again.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(studyRow(second, studyId)).toEqual(paused);
    expect(jobRows(second, studyId).every((job) => job.state === 'queued')).toBe(true);

    // Docker comes back: the study resumes on its own and every rep is a verdict.
    await proxy.restore();
    await until(() => studyRow(second, studyId).status === 'completed', 90_000, 'completion');
    await again.stop();
    expect(studyRow(second, studyId)).toEqual({ status: 'completed', paused_reason: null });
    expect(jobRows(second, studyId).map((job) => job.state)).toEqual(['done', 'done', 'done']);
    expect(repOutcomes(second, studyId)).toEqual(['verdict', 'verdict', 'verdict']);
    second.close();
  }, 240_000);

  it('asks a slow daemon again instead of failing the rep for good', async (context) => {
    needDocker(context);
    const dir = makeTempDir();
    dirs.push(dir);
    const study = createFaultStudy(workspaceIn(dir.path), {
      image,
      items: 1,
      baseUrl: server.url,
      spec: { arms: { cues: [] } },
    });
    server.handle('anthropic', shellJudge());
    // The next two pings take 4 s, past the 3 s a ping is first given (as under load).
    const before = proxy.connections();
    proxy.slowDown(2, 4000);
    const runner = study.runner();
    runner.start();
    await runner.whenIdle();
    await runner.stop();
    expect(proxy.connections() - before).toBeGreaterThanOrEqual(2);
    expect(studyRow(study.engine, study.studyId)).toEqual({
      status: 'completed',
      paused_reason: null,
    });
    expect(jobRows(study.engine, study.studyId)).toMatchObject([{ state: 'done', attempts: 1 }]);
    expect(repOutcomes(study.engine, study.studyId)).toEqual(['verdict']);
    study.engine.close();
  }, 120_000);
});
