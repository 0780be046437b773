import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studyProgress } from '../../src/main/engine/store/study-state';
import type { StudyProgress } from '../../src/shared/study-progress';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, shellJudge } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { mountSmallDisk, type SmallDisk } from '../helpers/tmpfs';
import { until } from '../helpers/until';
import { engineStore } from '../../src/main/engine/engine-store';

// In serve mode: the engine's own runner (the one `cuelab serve` starts) on
// a real full tmpfs. The pause cannot be written, yet the window hears the live reason at
// once on the event stream and from studyProgress; it is written when space returns.
let server: FakeModelServer;
let dir: ReturnType<typeof makeTempDir>;
let disk: SmallDisk;
const saved = { ...process.env };

beforeAll(async () => {
  server = await startFakeModelServer();
  dir = makeTempDir();
  disk = mountSmallDisk(join(dir.path, 'disk'), 6);
  // The engine's runner reads keys and trusted endpoints from the user's environment.
  process.env.ANTHROPIC_API_KEY = 'test';
  process.env.CUELAB_TRUSTED_ENDPOINTS = server.url;
});
afterAll(async () => {
  process.env = saved;
  await server.close();
  disk?.unmount();
  dir?.remove();
});

describe('a full disk under the serving engine', () => {
  it('publishes "disk full at …" as a paused study before the pause can be written', async () => {
    const workspace = join(disk.path, 'ws');
    const study = createFaultStudy(workspace, {
      items: 8,
      baseUrl: server.url,
      spec: { arms: { cues: [] } },
    });
    const { engine } = study;
    const judge = shellJudge(false);
    let filled = false;
    server.handle('anthropic', (request) => {
      if (server.callCount('anthropic') === 5 && !filled) {
        filled = true;
        disk.fill();
      }
      return judge(request);
    });
    const published: StudyProgress[] = [];
    const unsubscribe = engine.events.subscribe((event) => {
      if (event.stream === 'study.progress') published.push(event.data);
    });
    engine.startRunner({ concurrency: 1 });
    try {
      const live = () =>
        published.find(
          (progress) =>
            progress.status === 'paused' && /^disk full at /.test(progress.pausedReason ?? ''),
        );
      await until(() => live() !== undefined, 'the live pause on the event stream');
      expect(live()?.pausedReason).toContain(join(workspace, 'cuelab.sqlite'));
      expect(live()?.pausedReason).toMatch(/SQLITE_FULL/);
      // The database could not take the pause: it still says running.
      expect(studyProgress(engineStore(engine), study.studyId).status).toBe('running');
      // A window that opens now (or reloads) asks studyProgress and gets the same reason.
      const asked = await engine.handlers.studyProgress({ studyId: study.studyId });
      expect(asked).toMatchObject({ status: 'paused', pausedReason: live()?.pausedReason });

      disk.free();
      await until(
        () => studyProgress(engineStore(engine), study.studyId).status === 'paused',
        'the written pause',
      );
      const stored = studyProgress(engineStore(engine), study.studyId);
      expect(stored.pausedReason).toMatch(/^disk full at .*Free space on that disk/);
      const after = await engine.handlers.studyProgress({ studyId: study.studyId });
      expect(after).toMatchObject({ status: 'paused', pausedReason: stored.pausedReason });
    } finally {
      unsubscribe();
      await engine.stopRunner();
      engine.close();
    }
  }, 60_000);
});
