import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createEchoStudy } from '../helpers/echo-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';
import { answerOf } from '../helpers/answer';

// A key a provider echoes never reaches the store, the API or an export.
const SESSION_KEY = 'sk-ant-session-only-key-5f4e3d2c1b0a';

describe('keys echoed in provider errors', () => {
  const dir = makeTempDir();
  let engine: Engine;
  let models: FakeModelServer;

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    models = await startFakeModelServer();
    models.handle('anthropic', (request) =>
      reply.error(401, {
        type: 'authentication_error',
        message: `invalid x-api-key: ${String(request.headers.authorization).replace('Bearer ', '')}`,
      }),
    );
    engine = createEngine({ path: dir.path, source: 'flag' });
  });
  afterAll(async () => {
    await engine.stopRunner();
    engine.close();
    await models.close();
    dir.remove();
    vi.unstubAllEnvs();
  });

  /** Every text cell of every table, as one string. */
  function everything(): string {
    const tables = engineStore(engine)
      .db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all() as string[];
    return tables
      .map((table) =>
        JSON.stringify(engineStore(engine).db.prepare(`SELECT * FROM "${table}"`).all()),
      )
      .join('\n');
  }

  it('redacts a session key from the stored failure, the status and the bundle', async () => {
    await engine.handlers.setSecret({ name: 'ANTHROPIC_API_KEY', value: SESSION_KEY });
    const studyId = await createEchoStudy(engine, models.url);
    engine.startRunner({ concurrency: 1 });
    await vi.waitFor(
      async () => expect((await engine.handlers.studyProgress({ studyId })).status).toBe('paused'),
      { timeout: 20_000, interval: 50 },
    );
    expect(models.callCount('anthropic')).toBeGreaterThan(0);
    const progress = await engine.handlers.studyProgress({ studyId });
    expect(progress.pausedReason).toContain('invalid x-api-key: [redacted:ANTHROPIC_API_KEY]');
    expect(JSON.stringify(progress)).not.toContain(SESSION_KEY);
    expect(everything()).not.toContain(SESSION_KEY);
    const bundle = await answerOf(engine.handlers.exportBundle({ studyId }));
    const text = gunzipSync(Buffer.from(bundle.base64, 'base64')).toString('utf8');
    expect(text).not.toContain(SESSION_KEY);
  });
});
