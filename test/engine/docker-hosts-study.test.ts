// A study on two Docker engines spreads its reps over both, and survives one engine
// being killed mid-study: every rep is stored once, none lost, none scored from the dead host.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { saveDockerHost } from '../../src/main/engine/store/docker-hosts';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, shellJudge, workspaceIn } from '../helpers/fault-study';
import { startSecondDocker, type SecondDocker } from '../helpers/second-docker';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

let server: FakeModelServer;
let second: SecondDocker | null = null;
let image = '';
const dir = makeTempDir();

beforeAll(async () => {
  server = await startFakeModelServer();
  if (!(await dockerForTest())) return;
  image = await busyboxImage(new Docker());
  second = await startSecondDocker();
}, 120_000);

afterAll(async () => {
  await server.close();
  await second?.dispose();
  dir.remove();
}, 60_000);

function need(context: TestContext): SecondDocker {
  if (!second) context.skip('needs Docker and root for a second dockerd');
  return second;
}

describe('a study on two Docker engines', () => {
  it('spreads reps over both and loses none when one engine dies mid-study', async (context) => {
    const engine = need(context);
    const items = 10;
    const study = createFaultStudy(workspaceIn(dir.path), {
      image,
      items,
      baseUrl: server.url,
      spec: { arms: { cues: [] }, concurrency: { total: 4, containers: 4 } },
    });
    const store = engineStore(study.engine);
    saveDockerHost(store, { id: 'local', url: 'local', maxContainers: 2 });
    saveDockerHost(store, { id: 'second', url: engine.url, maxContainers: 2 });
    const lines: string[] = [];
    const deps = workspaceRunnerDeps(store, {
      env: { ANTHROPIC_API_KEY: 'test' },
      trust: { endpoints: [server.url], keyEnvNames: [] },
      onProvisionProgress: (line) => lines.push(line),
    });
    // Each rep holds its container for about a second, so both hosts have reps in flight.
    const judge = shellJudge(true, 'sleep 1; cat notes.txt');
    let killed = false;
    server.handle('anthropic', (request) => {
      // Kill the second engine once it has finished a rep and another is in its judge loop there.
      const onSecond = deps.hostPool.counts().second;
      if (!killed && onSecond && onSecond.repsDone >= 1 && onSecond.active >= 1) {
        killed = true;
        void engine.kill();
      }
      return judge(request);
    });
    const runner = new StudyRunner(
      { ...deps, retry: { baseDelayMs: 20, maxDelayMs: 200 } },
      { concurrency: 4, studyIds: [study.studyId], pollMs: 20 },
    );
    try {
      runner.start();
      await runner.whenIdle();
      await runner.stop();
      expect(killed).toBe(true);

      const jobs = store.db
        .prepare('SELECT state, attempts, rep_id FROM jobs WHERE study_id = ? ORDER BY item_id')
        .all(study.studyId) as { state: string; attempts: number; rep_id: string | null }[];
      expect(jobs).toHaveLength(items);
      expect(jobs.every((job) => job.state === 'done' && job.rep_id)).toBe(true);
      // At least one rep was in flight on the killed engine and ran again elsewhere.
      expect(jobs.some((job) => job.attempts >= 2)).toBe(true);

      const reps = store.db
        .prepare('SELECT id, item_id, outcome FROM judge_reps WHERE study_id = ?')
        .all(study.studyId) as { id: string; item_id: string; outcome: string }[];
      expect(reps).toHaveLength(items);
      expect(new Set(reps.map((rep) => rep.item_id)).size).toBe(items);
      for (const rep of reps) {
        expect(rep.outcome).toBe('verdict');
        const calls = store.db
          .prepare('SELECT output, is_error FROM judge_tool_calls WHERE rep_id = ?')
          .all(rep.id) as { output: string; is_error: number }[];
        // The evidence of every stored rep came from a live container.
        expect(calls).toHaveLength(1);
        expect(calls[0]).toMatchObject({ is_error: 0 });
        expect(calls[0]?.output).toContain(`done ${rep.item_id.replace('item-', '')}`);
      }

      const hosts = await deps.hostPool.status();
      const byId = Object.fromEntries(hosts.map((host) => [host.id, host]));
      expect(byId.second?.state).toBe('down');
      expect(byId.second?.repsDone).toBeGreaterThanOrEqual(1);
      expect(byId.local?.repsDone).toBeGreaterThanOrEqual(1);
      expect(lines.some((line) => line.includes('Docker host second is down'))).toBe(true);
    } finally {
      deps.hostPool.close();
      study.engine.close();
    }
  }, 240_000);
});
