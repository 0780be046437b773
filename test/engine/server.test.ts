import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { startServer, type RunningServer } from '../../src/main/server/http-server';
import {
  createLabClient,
  subscribeLabEvents,
  type WebSocketLike,
} from '../../src/shared/lab-client';
import type { LabEventMessage } from '../../src/shared/lab-api';
import { makeTempDir } from '../helpers/temp-dir';

describe('LabApi over HTTP and WebSocket', () => {
  const dir = makeTempDir();
  const rendererDir = join(dir.path, 'renderer');
  let engine: Engine;
  let server: RunningServer;
  let base: string;
  let token: string;

  beforeAll(async () => {
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>CueLab</title>');
    writeFileSync(join(dir.path, 'secret.txt'), 'outside the renderer');
    engine = createEngine({ path: join(dir.path, 'workspace'), source: 'flag' });
    server = await startServer({ engine, rendererDir });
    base = server.address.baseUrl;
    token = server.address.token;
  });
  afterAll(async () => {
    await server.close();
    engine.close();
    dir.remove();
  });

  const post = (method: string, body: string, auth = token) =>
    fetch(new URL(`/api/${method}`, base), {
      method: 'POST',
      headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
      body,
    });

  it('listens on 127.0.0.1 with a fresh 256-bit token', () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers 401 and nothing else without the token or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: token },
    ];
    for (const headers of attempts) {
      const response = await fetch(new URL('/api/health', base), { headers });
      expect(response.status).toBe(401);
      const body = (await response.json()) as unknown;
      expect(body).toEqual({
        ok: false,
        error: { code: 'unauthorized', message: 'A valid engine token is required.' },
      });
    }
    const unknownPath = await fetch(new URL('/api/does-not-exist', base));
    expect(unknownPath.status).toBe(401);
  });

  it('answers GET /api/health with the version and workspace', async () => {
    const response = await fetch(new URL('/api/health', base), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ok: boolean; value: Record<string, unknown> };
    expect(body.ok).toBe(true);
    expect(body.value.status).toBe('ok');
    expect(body.value.version).toBe(process.env.npm_package_version ?? body.value.version);
    expect(body.value.workspace).toBe(join(dir.path, 'workspace'));
  });

  it('rejects a malformed request with a clear error naming the field', async () => {
    const response = await post('listStudies', JSON.stringify({ limit: 'ten' }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      ok: false;
      error: { code: string; message: string; issues: { path: string }[] };
    };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toMatch(/^Bad request for listStudies: limit: /);
    expect(body.error.issues.map((issue) => issue.path)).toEqual(['limit']);
  });

  it('rejects unknown fields, broken JSON and unknown methods as data', async () => {
    const extra = (await (await post('listSuites', '{"surprise":1}')).json()) as {
      error: { code: string; message: string };
    };
    expect(extra.error.code).toBe('bad_request');
    expect(extra.error.message).toContain('surprise');

    const broken = await post('listSuites', '{"limit":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { message: string } }).error.message).toContain(
      'not valid JSON',
    );

    const unknown = await post('dropAllTables', '{}');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(
      'unknown_method',
    );
  });

  it('serves every contract method through the typed client', async () => {
    const client = createLabClient(server.address);
    const suites = await client.listSuites({});
    expect(suites).toEqual({ ok: true, value: [] });
    const studies = await client.listStudies({ limit: 5 });
    expect(studies).toEqual({ ok: true, value: [] });
    const info = await client.workspaceInfo({});
    expect(info.ok).toBe(true);
    if (info.ok) {
      expect(info.value.schemaVersion).toBe(info.value.latestSchemaVersion);
      expect(info.value.databasePath).toBe(join(dir.path, 'workspace', 'cuelab.sqlite'));
      expect(typeof info.value.docker.available).toBe('boolean');
      if (!info.value.docker.available) expect(info.value.docker.fix).toBeTruthy();
    }
  });

  it('reports an unreachable engine as an error value, not a throw', async () => {
    const client = createLabClient({ baseUrl: 'http://127.0.0.1:9/', token });
    const result = await client.health({});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('engine_unreachable');
  });

  it('serves the renderer without a token and never a file outside it', async () => {
    const index = await fetch(new URL('/', base));
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>CueLab</title>');
    const fallback = await fetch(new URL('/runs/deep/link', base));
    expect(await fallback.text()).toContain('<title>CueLab</title>');

    const raw = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: new URL(base).port, path: '/../secret.txt' },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(raw).not.toContain('outside the renderer');
    const encoded = await fetch(new URL('/%2e%2e/secret.txt', base));
    expect(await encoded.text()).not.toContain('outside the renderer');
  });

  it('refuses the event socket without the token', async () => {
    const url = new URL('/api/events', base);
    url.protocol = 'ws:';
    const outcome = await new Promise<string>((resolve) => {
      const socket = new WebSocket(url);
      socket.on('open', () => resolve('opened'));
      socket.on('unexpected-response', (_req, res) => resolve(`status ${res.statusCode}`));
      socket.on('error', (error) => resolve(`error ${error.message}`));
    });
    expect(outcome).toBe('status 401');
  });

  it('streams engine.hello and published events to a subscriber', async () => {
    const received: LabEventMessage[] = [];
    let close = () => {};
    await new Promise<void>((resolve) => {
      close = subscribeLabEvents(
        server.address,
        (url) => new WebSocket(url) as unknown as WebSocketLike,
        {
          onEvent: (event) => {
            received.push(event);
            if (event.stream === 'engine.hello') {
              engine.events.publish({ stream: 'studies.changed', data: { studyId: 'x' } });
            } else resolve();
          },
        },
      );
    });
    close();
    expect(received.map((event) => event.stream)).toEqual(['engine.hello', 'studies.changed']);
    expect(received[0]?.data).toMatchObject({ workspace: join(dir.path, 'workspace') });
  });
});
