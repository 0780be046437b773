/**
 * The exports' answers are encoded as JSON in the files worker and written by the server as
 * bytes (api/encoded-answer.ts, workers/json-chunks.ts): over real HTTP they must arrive as the
 * same answer the engine gives in process, with a true content-length, in more than one chunk
 * when large, and a client that hangs up half way must leave the engine answering.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchLabCall } from '../../src/main/engine/api/dispatch';
import { EncodedAnswer } from '../../src/main/engine/api/encoded-answer';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { startServer, type RunningServer } from '../../src/main/server/http-server';
import { createLabClient } from '../../src/shared/lab-client';
import { runStudy, suite } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';

describe('export answers encoded in the files worker', () => {
  const dir = makeTempDir();
  let engine: Engine;
  let server: RunningServer;
  let studyId: string;

  const post = (method: string, body: unknown, signal?: AbortSignal): Promise<Response> =>
    fetch(new URL(`/api/${method}`, server.address.baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.address.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });

  beforeAll(async () => {
    engine = createEngine({ path: join(dir.path, 'workspace'), source: 'flag' });
    studyId = await runStudy(engineStore(engine));
    // Incompressible files in an item make the bundle's base64 a few megabytes: several chunks.
    const large = suite();
    large.items[0]!.environment.files['padding.txt'] = randomBytes(1_500_000).toString('hex');
    saveSuite(engineStore(engine), large, 'imported');
    const rendererDir = join(dir.path, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
    server = await startServer({ engine, rendererDir });
  }, 120_000);
  afterAll(async () => {
    await server.close();
    engine.close();
    dir.remove();
  });

  it('comes back from the handler as bytes, in several chunks for a large bundle', async () => {
    const answer = await engine.handlers.exportBundle({ studyId });
    expect(answer).toBeInstanceOf(EncodedAnswer);
    expect((answer as EncodedAnswer).chunks.length).toBeGreaterThan(1);
  });

  it('arrives over HTTP whole, with its length, as the same bundle the engine gives in process', async () => {
    const response = await post('exportBundle', { studyId });
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    const remote = JSON.parse(bytes.toString('utf8')) as {
      ok: true;
      value: { base64: string; reps: number; fileName: string };
    };
    expect(remote.ok).toBe(true);
    const local = JSON.parse(
      JSON.stringify(await dispatchLabCall(engine.handlers, 'exportBundle', { studyId })),
    ) as typeof remote;
    expect(remote.value.reps).toBe(local.value.reps);
    expect(remote.value.fileName).toBe(local.value.fileName);
    const bundle = JSON.parse(
      gunzipSync(Buffer.from(remote.value.base64, 'base64')).toString('utf8'),
    ) as { tables: { reps: unknown[] } };
    expect(bundle.tables.reps).toHaveLength(remote.value.reps);
    expect(JSON.stringify(bundle)).toContain('padding.txt');
  });

  it('gives the Inspect logs over HTTP that it gives in process, through the contract’s parse', async () => {
    const remote = await createLabClient(server.address).exportInspect({ studyId });
    const local = await dispatchLabCall(engine.handlers, 'exportInspect', { studyId });
    expect(remote.ok && local.ok).toBe(true);
    if (!remote.ok || !local.ok) return;
    const localValue = JSON.parse(JSON.stringify(local.value)) as typeof remote.value;
    expect(remote.value.logs.map((log) => [log.name, log.samples])).toEqual(
      localValue.logs.map((log) => [log.name, log.samples]),
    );
    expect(remote.value.logs.length).toBeGreaterThan(0);
    for (const log of remote.value.logs) {
      const parsed = JSON.parse(log.text ?? '') as { samples: unknown[] };
      expect(parsed.samples).toHaveLength(log.samples);
    }
  });

  it('gives a study’s Inspect logs one at a time, the same logs as all at once', async () => {
    const lab = createLabClient(server.address);
    const whole = await lab.exportInspect({ studyId });
    if (!whole.ok) throw new Error(whole.error.message);
    expect(whole.value.count).toBe(whole.value.logs.length);
    expect(whole.value.count).toBeGreaterThanOrEqual(2);
    const paged = [];
    for (let log = 0; log < whole.value.count; log += 1) {
      const one = await lab.exportInspect({ studyId, log });
      if (!one.ok) throw new Error(one.error.message);
      expect(one.value.count).toBe(whole.value.count);
      expect(one.value.logs).toHaveLength(1);
      paged.push(...one.value.logs);
    }
    expect(paged).toEqual(whole.value.logs);
    const past = await lab.exportInspect({ studyId, log: whole.value.count });
    expect(past.ok).toBe(false);
    if (!past.ok) {
      expect(past.error.code).toBe('bad_request');
      expect(past.error.message).toContain(`has ${String(whole.value.count)} Inspect log(s)`);
    }
  });

  it('keeps answering after a client hangs up half way through a large answer', async () => {
    const abort = new AbortController();
    const response = await post('exportBundle', { studyId }, abort.signal);
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.read().catch(() => undefined);
    const studies = await createLabClient(server.address).listStudies({});
    expect(studies.ok && studies.value.map((study) => study.id)).toEqual([studyId]);
  });
});
