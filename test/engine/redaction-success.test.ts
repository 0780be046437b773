import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { readZip } from '../../src/main/engine/suites/import/zip';
import { TABLE_NAMES } from '../../src/shared/report-tables';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createEchoStudy } from '../helpers/echo-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';
import { answerOf } from '../helpers/answer';

// A trusted endpoint that echoes the key in a SUCCESSFUL reply. The key
// has no key-like shape, so only the engine's memory of its keys can catch it once the variable
// is unset; the reply also carries someone else's key, which only the shape rule catches.
const KEY = 'cuelab-plain-looking-secret-4b7d1e9a03';
const FOREIGN_KEY = 'sk-ant-api03-Zq9xW2vT8uR5pL1mN4kJ7hG3fD6sA0bC';

/** Every file under `folder`, read whole (the database, its WAL and the marker included). */
function filesUnder(folder: string): { file: string; bytes: Buffer }[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory()
      ? filesUnder(path)
      : [{ file: path, bytes: readFileSync(path) }];
  });
}

/** The key as the SDK sent it (`Authorization: Bearer KEY`). */
function keySent(headers: Record<string, string | string[] | undefined>): string {
  return String(headers.authorization ?? '').replace(/^Bearer /, '');
}

function expectNoKey(text: string, where: string): void {
  expect(text, where).not.toContain(KEY);
  expect(text, where).not.toContain(FOREIGN_KEY);
}

describe('keys a trusted endpoint echoes in a successful reply', () => {
  const dir = makeTempDir();
  let engine: Engine;
  let models: FakeModelServer;
  let studyId: string;

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    models = await startFakeModelServer();
    models.handle('anthropic', (request) => {
      const sent = keySent(request.headers);
      const echo = `You sent ${sent}, or Bearer ${sent}; here is another: ${FOREIGN_KEY}`;
      return reply.toolCalls(
        [
          {
            name: 'submit_verdict',
            input: { verdict: 'pass', confidence: 0.9, rationale: echo },
          },
        ],
        { text: echo },
      );
    });
    engine = createEngine({ path: dir.path, source: 'flag' });
    studyId = await createEchoStudy(engine, models.url);
    engine.startRunner({ concurrency: 1 });
    await vi.waitFor(
      async () =>
        expect((await engine.handlers.studyProgress({ studyId })).status).toBe('completed'),
      { timeout: 30_000, interval: 50 },
    );
    await engine.stopRunner();
  });
  afterAll(async () => {
    engine.close();
    await models.close();
    dir.remove();
    vi.unstubAllEnvs();
  });

  it('the endpoint really received the key and echoed it in replies the judge accepted', async () => {
    const sent = models.requests('anthropic').map((request) => keySent(request.headers));
    expect(sent).toContain(KEY);
    const reps = await engine.handlers.listReps({ studyId });
    expect(reps.length).toBeGreaterThan(0);
    expect(reps.every((rep) => rep.outcome === 'verdict')).toBe(true);
  });

  it('stores the transcripts with both keys redacted', () => {
    const messages = engineStore(engine)
      .db.prepare("SELECT content FROM judge_messages WHERE role = 'assistant'")
      .pluck()
      .all() as string[];
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.join('\n')).toContain('[redacted:ANTHROPIC_API_KEY]');
    expect(messages.join('\n')).toContain('[redacted:key]');
  });

  it('leaves no key in any export made after the variable is unset, nor in the workspace files', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    const bundle = await answerOf(engine.handlers.exportBundle({ studyId }));
    expectNoKey(gunzipSync(Buffer.from(bundle.base64, 'base64')).toString('utf8'), 'bundle');
    const json = await answerOf(engine.handlers.exportInspect({ studyId, format: 'json' }));
    expect(json.logs.length).toBeGreaterThan(0);
    for (const log of json.logs) {
      expect(log.text).toContain('[redacted:');
      expectNoKey(log.text ?? '', `inspect ${log.name}`);
    }
    const evalLogs = await answerOf(engine.handlers.exportInspect({ studyId, format: 'eval' }));
    for (const log of evalLogs.logs) {
      const archive = Buffer.from(log.base64 ?? '', 'base64');
      for (const entry of readZip(archive))
        expectNoKey(entry.read().toString('utf8'), `${log.name}:${entry.name}`);
    }
    for (const table of TABLE_NAMES) {
      const csv = await engine.handlers.reportCsv({ studyId, table });
      expectNoKey(csv.csv, `${table}.csv`);
      for (const format of ['md', 'json'] as const) {
        const report = await engine.handlers.formatReport({ studyId, table, format });
        expectNoKey(report.text, `${table}.${format}`);
      }
    }
    expectNoKey((await engine.handlers.exportLabels({ studyId, all: true })).text, 'labels');

    engineStore(engine).db.pragma('wal_checkpoint(TRUNCATE)');
    const files = filesUnder(dir.path);
    expect(files.some(({ file }) => file.endsWith('.sqlite'))).toBe(true);
    for (const { file, bytes } of files) {
      expect(bytes.includes(KEY), file).toBe(false);
      expect(bytes.includes(FOREIGN_KEY), file).toBe(false);
    }
  });
});
