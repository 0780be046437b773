import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeStudy, studyProgress } from '../../src/main/engine/store/study-state';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, shellJudge } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { mountSmallDisk, type SmallDisk } from '../helpers/tmpfs';
import { until } from '../helpers/until';
import { engineStore } from '../../src/main/engine/engine-store';

// A database write that fails for lack of space must not crash the
// engine. It stops, pauses the study with the reason, leaves no ghost "running" job, and
// resumes once space is free, losing and repeating nothing that was stored.
const items = 8;
let server: FakeModelServer;
let dir: ReturnType<typeof makeTempDir>;
let disk: SmallDisk;

beforeAll(async () => {
  server = await startFakeModelServer();
  dir = makeTempDir();
  disk = mountSmallDisk(join(dir.path, 'disk'), 6);
});
afterAll(async () => {
  await server.close();
  disk?.unmount();
  dir?.remove();
});

describe('a workspace whose disk fills up mid-study', () => {
  it('pauses the study with "disk full at …", shows no ghost runs, and resumes when space is free', async () => {
    const workspace = join(disk.path, 'ws');
    const study = createFaultStudy(workspace, {
      items,
      baseUrl: server.url,
      spec: { arms: { cues: [] } },
    });
    const store = engineStore(study.engine);
    const judge = shellJudge(false);
    let filled = false;
    server.handle('anthropic', (request) => {
      // After two whole reps, the disk fills up while the third rep's first call is out.
      if (server.callCount('anthropic') === 5 && !filled) {
        filled = true;
        disk.fill();
      }
      return judge(request);
    });
    const runner = study.runner({ leaseMs: 1500 });
    runner.start();
    try {
      await until(() => runner.storageProblem !== null, 'the storage fault');
      expect(runner.storageProblem).toMatch(
        new RegExp(`^disk full at ${join(workspace, 'cuelab.sqlite')}: .*SQLITE_FULL`),
      );
      const doneWhileFull = studyProgress(store, study.studyId).done;
      expect(doneWhileFull).toBeGreaterThanOrEqual(2);
      expect(doneWhileFull).toBeLessThan(items);
      // While the disk is full nothing can be written; the lease of the rep that was in
      // flight runs out, and status shows its job waiting, not running.
      await until(() => studyProgress(store, study.studyId).running === 0, 'no running job', 5000);

      disk.free();
      // With space again, the engine (still up) records the pause and gives the job back.
      await until(() => studyProgress(store, study.studyId).status === 'paused', 'the pause');
      const paused = studyProgress(store, study.studyId);
      expect(paused.pausedReason).toMatch(
        /^disk full at .*cuelab\.sqlite: .*Free space on that disk/,
      );
      expect(paused.running).toBe(0);
      const running = store.db
        .prepare(`SELECT count(*) AS n FROM jobs WHERE study_id = ? AND state = 'running'`)
        .get(study.studyId) as { n: number };
      expect(running.n).toBe(0);
      expect(runner.storageProblem).toBeNull();

      resumeStudy(store, study.studyId);
      await until(
        () => studyProgress(store, study.studyId).status === 'completed',
        'the resumed study to complete',
      );
    } finally {
      await runner.stop();
    }
    const progress = studyProgress(store, study.studyId);
    expect(progress.done).toBe(items);
    expect(progress.failed).toBe(0);
    const reps = store.db
      .prepare(
        'SELECT count(*) AS n, count(DISTINCT item_id) AS items FROM judge_reps WHERE study_id = ?',
      )
      .get(study.studyId) as { n: number; items: number };
    expect(reps).toEqual({ n: items, items });
    // Two calls per rep; only calls that never got stored (in flight at the fault) repeat.
    const stored = store.db.prepare('SELECT count(*) AS n FROM provider_calls').get() as {
      n: number;
    };
    expect(stored.n).toBe(2 * items);
    expect(server.callCount('anthropic') - stored.n).toBeLessThanOrEqual(2);
    study.engine.close();
  }, 60_000);
});
