// The runner with rep containers made ahead, on a real Docker engine and the fake model
// server: the next rep of an item starts on the container made while the previous rep ran,
// every rep still sees a fresh end state, and no container outlives the run — nor a study
// that is cancelled or paused while the runner goes on.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { engineStore } from '../../src/main/engine/engine-store';
import { studyProgress } from '../../src/main/engine/runner/progress';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { cancelStudy, pauseStudy } from '../../src/main/engine/store/faces/studies';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, shellJudge, studyContainers, workspaceIn } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';

const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const docker = new Docker();
let server: FakeModelServer;
let image = '';
const dirs: { remove(): void }[] = [];

beforeAll(async () => {
  server = await startFakeModelServer();
  if (!(await dockerForTest())) return;
  image = await busyboxImage(docker);
}, 120_000);

afterAll(async () => {
  await server.close();
  for (const dir of dirs) dir.remove();
});

function need(context: TestContext): string {
  if (!image) context.skip(skipReason);
  return image;
}

/** A study of `items` busybox items × `reps` uncued reps, and a runner over it. */
function study(image: string, items: number, reps: number, leaseMs = 30_000) {
  const dir = makeTempDir();
  dirs.push(dir);
  const made = createFaultStudy(workspaceIn(dir.path), {
    image,
    items,
    baseUrl: server.url,
    spec: { arms: { cues: [] }, reps },
  });
  const store = engineStore(made.engine);
  const deps = workspaceRunnerDeps(store, {
    env: { ANTHROPIC_API_KEY: 'test' },
    trust: { endpoints: [server.url], keyEnvNames: [] },
  });
  const runner = new StudyRunner(
    { ...deps, retry: { baseDelayMs: 20, maxDelayMs: 200 } },
    { concurrency: 1, studyIds: [made.studyId], pollMs: 20, leaseMs },
  );
  return { ...made, store, deps, runner };
}

/** Waits until no container of `studyId` is left (the test's own timeout bounds it). */
async function untilNoContainers(studyId: string): Promise<void> {
  while ((await studyContainers(docker, studyId)).length > 0)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('the runner with containers made ahead', () => {
  it('starts each next rep of an item on the container made meanwhile, fresh every time', async (context) => {
    const run = study(need(context), 2, 3);
    // Each rep dirties its copy: a container reused by a later rep would show the line.
    server.handle('anthropic', shellJudge(true, 'cat notes.txt; echo dirty >> notes.txt'));
    try {
      run.runner.start();
      await run.runner.whenIdle();
      await run.runner.stop();
      const outputs = run.store.db
        .prepare(
          `SELECT r.item_id AS item, c.output AS output FROM judge_reps r
             JOIN judge_tool_calls c ON c.rep_id = r.id WHERE r.study_id = ?`,
        )
        .all(run.studyId) as { item: string; output: string }[];
      expect(outputs).toHaveLength(6);
      for (const { item, output } of outputs)
        expect(output).toBe(`exit code: 0\nstdout:\ndone ${item.replace('item-', '')}\n`);
      // Reps run item by item at concurrency 1: the 2nd and 3rd of each item took one made
      // ahead; the one made during each item's last rep was never taken and is gone.
      expect(run.deps.hostPool.warm.counts()).toMatchObject({ created: 6, taken: 4, waiting: 0 });
      expect(await studyContainers(docker, run.studyId)).toEqual([]);
    } finally {
      run.deps.hostPool.close();
      run.engine.close();
    }
  }, 120_000);

  for (const stopped of ['cancelled', 'paused'] as const) {
    it(`removes the one made ahead when the study is ${stopped}, while the runner goes on`, async (context) => {
      // A short lease: the heartbeat that notices a cancel beats every 200 ms.
      const run = study(need(context), 1, 3, 600);
      const judge = shellJudge(true, 'sleep 1; cat notes.txt');
      let requests = 0;
      server.handle('anthropic', (request) => {
        requests += 1;
        // The first rep's shell call is answered: the next rep's container is being made.
        if (requests === 2) {
          if (stopped === 'cancelled') cancelStudy(run.store, run.studyId);
          else pauseStudy(run.store, run.studyId);
        }
        return judge(request);
      });
      try {
        run.runner.start();
        while (requests < 2 || run.deps.hostPool.warm.counts().created < 1)
          await new Promise((resolve) => setTimeout(resolve, 50));
        await untilNoContainers(run.studyId);
        // Removed by the runner's next claim, not by its stop.
        expect(run.deps.hostPool.warm.counts()).toMatchObject({ created: 1, waiting: 0 });
        await run.runner.stop();
        expect(run.deps.hostPool.warm.counts().taken).toBe(0);
        if (stopped === 'cancelled') {
          // The rep in flight at the cancel ends cancelled, not failed, and the plan stays.
          const progress = studyProgress(run.store, run.studyId);
          expect(progress.failed).toBe(0);
          expect(progress.arms.reduce((sum, arm) => sum + arm.cancelled, 0)).toBeGreaterThan(0);
          expect(progress.plannedTotal).toBeGreaterThanOrEqual(progress.total);
        }
      } finally {
        run.deps.hostPool.close();
        run.engine.close();
      }
    }, 120_000);
  }
});
