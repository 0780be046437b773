/**
 * openBundle's size limits agree with the server's (transport-limits.ts): an inline base64
 * bundle is refused by the contract before the server's JSON limit could cut it, and a bundle
 * larger than that limit streams to the engine (uploadBundle) and opens.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchLabCall } from '../../src/main/engine/api/dispatch';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { exportBundle } from '../../src/main/engine/export/bundle-export';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { startServer, type RunningServer } from '../../src/main/server/http-server';
import { createLabClient, uploadBundle } from '../../src/shared/lab-client';
import { maxInlineBundleBase64, maxJsonBodyBytes } from '../../src/shared/transport-limits';
import { runStudy, suite } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

describe('opening a bundle larger than the JSON body limit', () => {
  const dir = makeTempDir();
  const file = join(dir.path, 'large.cuelab-bundle.json.gz');
  let source: Engine;
  let target: Engine;
  let server: RunningServer;
  let studyId: string;

  beforeAll(async () => {
    source = createEngine({ path: join(dir.path, 'a'), source: 'flag' });
    studyId = await runStudy(engineStore(source));
    // Incompressible bytes in an item's files make the gzipped bundle larger than the limit.
    const large = suite();
    const item = large.items[0]!;
    item.environment.files['padding.txt'] = randomBytes(1_200_000).toString('hex');
    saveSuite(engineStore(source), large, 'imported');
    exportBundle(engineStore(source), studyId, file);
    target = createEngine({ path: join(dir.path, 'b'), source: 'flag' });
    const rendererDir = join(dir.path, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
    server = await startServer({ engine: target, rendererDir });
  }, 120_000);
  afterAll(async () => {
    await server.close();
    source.close();
    target.close();
    dir.remove();
  });

  it('is larger than the old limit, so the test means something', () => {
    expect(statSync(file).size).toBeGreaterThan(maxJsonBodyBytes);
  });

  it('refuses it inline with the reason, before the server would cut the body', async () => {
    const base64 = readFileSync(file).toString('base64');
    expect(base64.length).toBeGreaterThan(maxInlineBundleBase64);
    // Sent raw, the body passes the server's limit: the server answers 413, not a hang.
    const response = await fetch(new URL('/api/openBundle', server.address.baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.address.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ base64 }),
    });
    expect(response.status).toBe(413);
    // In-process the contract itself says how large an inline bundle may be.
    const inline = await dispatchLabCall(target.handlers, 'openBundle', { base64 });
    expect(inline).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('streams it to the engine, which opens it', async () => {
    const stream = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    const opened = await uploadBundle(server.address, stream);
    expect(opened).toMatchObject({ ok: true, value: { studyId, replaced: false } });
    const studies = await createLabClient(server.address).listStudies({});
    expect(studies.ok ? 'ok' : studies.error.message).toBe('ok');
    expect(studies.ok && studies.value.map((study) => study.id)).toEqual([studyId]);
    // Again, as a Blob (what the window's file input gives), replacing what is there.
    const again = await uploadBundle(server.address, new Blob([readFileSync(file)]), {
      replace: true,
    });
    expect(again).toMatchObject({ ok: true, value: { studyId, replaced: true } });
  });
});
