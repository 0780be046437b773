import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAliveFetch } from '../../src/main/engine/providers/http-fetch';
import { freePort } from '../helpers/free-port';

// The SDK clients' fetch (providers/http-fetch.ts), against a real local HTTP server.
describe('the providers keep-alive fetch', () => {
  let server: Server;
  let url = '';
  let connections = 0;
  const received: { method: string; body: string; headers: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ method: request.method ?? '', body, headers: { ...request.headers } });
        if (request.url === '/slow') return; // never answers
        response.writeHead(request.url === '/missing' ? 404 : 200, {
          'content-type': 'application/json',
          'x-request-id': `req-${received.length}`,
        });
        response.end(JSON.stringify({ echoed: body }));
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends method, headers and body, reads status, headers and JSON, over one kept-alive connection', async () => {
    const before = connections;
    for (const n of [1, 2, 3]) {
      const response = await keepAliveFetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: new Headers({ 'content-type': 'application/json', 'x-api-key': 'k' }),
        body: JSON.stringify({ n }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ echoed: JSON.stringify({ n }) });
    }
    expect(connections - before).toBe(1);
    expect(received.at(-1)).toMatchObject({
      method: 'POST',
      body: '{"n":3}',
      headers: { 'x-api-key': 'k', 'content-length': '7' },
    });
    const missing = await keepAliveFetch(new URL(`${url}/missing`));
    expect(missing.status).toBe(404);
    expect(missing.ok).toBe(false);
  });

  it('rejects with the signal reason when aborted, and as fetch does when nothing answers', async () => {
    const controller = new AbortController();
    const pending = keepAliveFetch(`${url}/slow`, {
      method: 'POST',
      body: 'x',
      signal: controller.signal,
    });
    const reason = new Error('runner stopped');
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
    const timeout = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(keepAliveFetch(`${url}/v1/messages`, { signal: timeout })).rejects.toMatchObject({
      name: 'TimeoutError',
    });

    const closed = `http://127.0.0.1:${await freePort()}`;
    await expect(keepAliveFetch(`${closed}/v1/messages`)).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
  });
});
