import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { startServer, type RunningServer } from '../../src/main/server/http-server';
import { makeTempDir } from '../helpers/temp-dir';

// Host and Origin checked, CORS never "*", no symlink out, private files.
describe('the engine port answers only its own page', () => {
  const dir = makeTempDir();
  const rendererDir = join(dir.path, 'renderer');
  const workspace = join(dir.path, 'workspace');
  let engine: Engine;
  let server: RunningServer;
  let port: number;
  let token: string;

  beforeAll(async () => {
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>CueLab</title>');
    writeFileSync(join(dir.path, 'secret.txt'), 'outside the renderer');
    symlinkSync(join(dir.path, 'secret.txt'), join(rendererDir, 'leak.txt'));
    symlinkSync(dir.path, join(rendererDir, 'up'));
    engine = createEngine({ path: workspace, source: 'flag' });
    server = await startServer({ engine, rendererDir });
    port = Number(new URL(server.address.baseUrl).port);
    token = server.address.token;
  });
  afterAll(async () => {
    await server.close();
    engine.close();
    dir.remove();
  });

  /** A raw request, so Host and Origin are exactly what a hostile page could make them. */
  function send(
    path: string,
    headers: Record<string, string>,
    method = 'GET',
  ): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port, path, method, headers, setHost: false },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
          );
        },
      );
      request.on('error', reject);
      request.end();
    });
  }
  const auth = () => ({ authorization: `Bearer ${token}` });

  it('refuses a rebinding Host, even with the token', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1', `127.0.0.1:1`]) {
      const answer = await send('/api/health', { host, ...auth() });
      expect(answer.status, host).toBe(403);
      expect(answer.body).not.toContain('workspace');
    }
    expect((await send('/', { host: 'evil.example' })).status).toBe(403);
  });

  it('answers its own hosts, and echoes only allowed origins (never *)', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await send('/api/health', { host, ...auth() })).status, host).toBe(200);
    }
    const own = await send('/api/health', {
      host: `127.0.0.1:${port}`,
      origin: `http://127.0.0.1:${port}`,
      ...auth(),
    });
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBe(`http://127.0.0.1:${port}`);
    const window = await send('/api/health', {
      host: `127.0.0.1:${port}`,
      origin: 'null',
      ...auth(),
    });
    expect(window.headers['access-control-allow-origin']).toBe('null');
    const cli = await send('/api/health', { host: `127.0.0.1:${port}`, ...auth() });
    expect(cli.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses another site’s page: requests, preflights and the event socket', async () => {
    const host = `127.0.0.1:${port}`;
    const origin = 'https://evil.example';
    const call = await send('/api/health', { host, origin, ...auth() });
    expect(call.status).toBe(403);
    expect(call.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send('/api/health', { host, origin }, 'OPTIONS');
    expect(preflight.status).toBe(403);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/events?token=${token}`, { origin });
    const outcome = await new Promise<string>((resolve) => {
      socket.on('open', () => resolve('open'));
      socket.on('unexpected-response', (_request, response) =>
        resolve(String(response.statusCode)),
      );
      socket.on('error', () => resolve('error'));
    });
    socket.terminate();
    expect(outcome).toBe('403');
  });

  it('does not follow a symlink out of the renderer folder', async () => {
    const host = `127.0.0.1:${port}`;
    for (const path of ['/leak.txt', '/up/secret.txt']) {
      const answer = await send(path, { host });
      expect(answer.body, path).not.toContain('outside the renderer');
    }
  });

  it('keeps the workspace folder 0700 and its database files 0600', () => {
    expect(statSync(workspace).mode & 0o777).toBe(0o700);
    for (const file of ['cuelab.sqlite', 'cuelab.sqlite-wal', 'cuelab.sqlite-shm']) {
      const path = join(workspace, file);
      expect(statSync(path).mode & 0o777, file).toBe(0o600);
    }
  });
});
