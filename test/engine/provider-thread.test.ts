import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerWaits } from '../../src/main/engine/providers/rate-limits';
import { callWithRetry } from '../../src/main/engine/providers/retry';
import {
  buildProvider,
  createProvider,
  modelSettingsSchema,
  type ModelSettings,
} from '../../src/main/engine/providers/settings';
import {
  ProviderError,
  type ModelProvider,
  type ModelRequest,
} from '../../src/main/engine/providers/types';
import { isTransientFailure } from '../../src/main/engine/runner/failures';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';

/** Provider calls made on the provider thread (providers/threaded.ts) against the real SDKs. */

const request: ModelRequest = {
  model: 'model-x',
  system: 'You are a careful judge.',
  tools: [{ name: 'shell', description: 'Run a command.', inputSchema: { type: 'object' } }],
  temperature: 0.7,
  maxTokens: 100,
  messages: [{ role: 'user', content: 'Judge this trajectory.' }],
};

const env = { ANTHROPIC_API_KEY: 'sk-ant-thread-test', OPENAI_API_KEY: 'sk-thread-test' };

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** What retry classification and the logs read of a failure. */
function fieldsOf(error: ProviderError) {
  return {
    kind: error.kind,
    retryable: error.retryable,
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    message: error.message,
    transient: isTransientFailure(error),
  };
}

describe('provider calls on the provider thread', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const routes = ['anthropic', 'openai'] as const;
  function settingsFor(route: (typeof routes)[number], timeoutMs = 5_000): ModelSettings {
    return modelSettingsSchema.parse(
      route === 'anthropic'
        ? { provider: 'anthropic', model: 'model-x', baseUrl: server.url, timeoutMs }
        : { provider: 'openai', model: 'model-x', baseUrl: server.openaiUrl, timeoutMs },
    );
  }
  /** The same settings built on this thread and on the provider thread. */
  function both(route: (typeof routes)[number], timeoutMs?: number) {
    const settings = settingsFor(route, timeoutMs);
    const key = {
      apiKey: env[route === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'],
      apiKeyEnv: undefined,
    };
    return { here: buildProvider(settings, key), threaded: createProvider(settings, env) };
  }
  /** Runs `provider` once against `scripted` and returns its failure. */
  async function failWith(
    route: (typeof routes)[number],
    provider: ModelProvider,
    scripted: Parameters<FakeModelServer['script']>[1],
  ): Promise<ProviderError> {
    server.script(route, scripted);
    return failure(provider.complete(request));
  }

  it.each(routes)(
    'answers a %s call with the same neutral reply as on this thread',
    async (route) => {
      const { here, threaded } = both(route);
      const scripted = reply.toolCall(
        'shell',
        { command: 'ls' },
        { id: 'call_1', usage: { inputTokens: 12, outputTokens: 3 } },
      );
      server.script(route, [scripted, scripted]);
      const expected = await here.complete(request);
      const before = server.callCount(route);
      const response = await threaded.complete(request);
      expect(server.callCount(route) - before).toBe(1);
      expect(response).toEqual(expected);
      expect(response.toolCalls).toEqual([
        { id: 'call_1', name: 'shell', input: { command: 'ls' } },
      ]);
      // The key went in the request header, as on this thread.
      const sent = server.requests(route).at(-1)?.headers;
      expect(JSON.stringify(sent)).toContain(
        route === 'anthropic' ? 'sk-ant-thread-test' : 'sk-thread-test',
      );
    },
  );

  it.each(routes)('fails a %s call with the same ProviderError for each failure', async (route) => {
    const { here, threaded } = both(route);
    const cases = [
      [reply.rateLimited(3)],
      [reply.error(500, { message: 'from the server' })],
      [reply.error(401, { message: 'invalid key' })],
      [reply.garbage()],
      [reply.raw(200, { not: 'a message' })],
    ];
    for (const scripted of cases) {
      const expected = fieldsOf(await failWith(route, here, scripted));
      const got = fieldsOf(await failWith(route, threaded, scripted));
      expect(got).toEqual(expected);
    }
    // Each was classified as it is on this thread (429 with its retry-after, 401 not retried).
    const rateLimited = await failWith(route, threaded, [reply.rateLimited(3)]);
    expect(rateLimited).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 3000 });
    const auth = await failWith(route, threaded, [reply.error(401, { message: 'invalid key' })]);
    expect(auth).toMatchObject({ kind: 'auth', retryable: false, status: 401 });
    const garbled = await failWith(route, threaded, [reply.garbage()]);
    expect(garbled).toMatchObject({ kind: 'bad_response', retryable: true });
  });

  it.each(routes)('maps a %s server slower than timeoutMs to the same timeout', async (route) => {
    const { here, threaded } = both(route, 150);
    const slow = { ...reply.text('too late'), delayMs: 1_000 };
    const expected = fieldsOf(await failWith(route, here, [slow]));
    const got = fieldsOf(await failWith(route, threaded, [slow]));
    expect(got).toEqual(expected);
    expect(got.kind).toBe('timeout');
  });

  it.each(routes)(
    'aborts a %s call mid-call: the request is dropped and the call rejects as aborted',
    async (route) => {
      const { here, threaded } = both(route);
      const outcomes: ReturnType<typeof fieldsOf>[] = [];
      for (const provider of [here, threaded]) {
        server.script(route, [{ ...reply.text('never seen'), delayMs: 30_000 }]);
        const before = server.callCount(route);
        const controller = new AbortController();
        const pending = callWithRetry(provider, request, { signal: controller.signal });
        // Abort only once the server holds the request: mid-call, not before it.
        while (server.callCount(route) === before)
          await new Promise((resolve) => setTimeout(resolve, 10));
        controller.abort();
        outcomes.push(fieldsOf(await failure(pending)));
        expect(server.callCount(route) - before).toBe(1);
      }
      expect(outcomes[1]).toEqual(outcomes[0]);
      expect(outcomes[1]?.kind).toBe('aborted');
    },
  );

  it('maps a refused connection to the same retryable, transient connection error', async () => {
    const closed = await startFakeModelServer();
    await closed.close();
    const settings = modelSettingsSchema.parse({
      provider: 'anthropic',
      model: 'model-x',
      baseUrl: closed.url,
      timeoutMs: 1_000,
    });
    const here = buildProvider(settings, { apiKey: 'k', apiKeyEnv: undefined });
    const expected = fieldsOf(await failure(here.complete(request)));
    const got = fieldsOf(
      await failure(createProvider(settings, { ANTHROPIC_API_KEY: 'k' }).complete(request)),
    );
    expect(got).toEqual(expected);
    expect(got).toMatchObject({ kind: 'connection', retryable: true });
  });

  it("shows the thread's rate-limit waits in this thread's providerWaits", async () => {
    // Its own key, so its own pacer: the reply says no request is left for a minute.
    const settings = settingsFor('anthropic');
    const provider = createProvider(settings, { ANTHROPIC_API_KEY: 'sk-ant-paced' });
    const resetAt = new Date(Date.now() + 60_000).toISOString();
    const headers = {
      'anthropic-ratelimit-requests-limit': '5',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': resetAt,
    };
    server.script('anthropic', [{ type: 'message', text: 'first', headers }]);
    await provider.complete(request);
    const before = server.callCount('anthropic');
    const controller = new AbortController();
    const paced = failure(provider.complete(request, controller.signal));
    while (!providerWaits().some((wait) => wait.reason.includes('requests limit (5 per window)')))
      await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await paced).toMatchObject({ kind: 'aborted' });
    expect(server.callCount('anthropic')).toBe(before); // held by the pacer, never sent
  });

  it('still reports a missing key before any call, on this thread', () => {
    expect(() => createProvider(settingsFor('anthropic'), {})).toThrow(/Set ANTHROPIC_API_KEY/);
  });

  it('makes the HTTP request while this thread is blocked', async () => {
    // A server on a thread of its own, so this thread's block cannot hold it up: it raises a
    // shared flag when a request arrives, and this thread reads the flag while blocked.
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const serverThread = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
      const http = require('node:http');
      const flag = new Int32Array(workerData);
      const body = JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'model-x',
        content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 1 } });
      const server = http.createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          Atomics.store(flag, 0, 1);
          response.writeHead(200, { 'content-type': 'application/json' }).end(body);
        });
      });
      server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
      parentPort.on('message', () => server.close(() => process.exit(0)));`,
      { eval: true, workerData: flag.buffer },
    );
    try {
      const port = await new Promise<number>((resolve) => serverThread.once('message', resolve));
      const settings = modelSettingsSchema.parse({
        provider: 'anthropic',
        model: 'model-x',
        baseUrl: `http://127.0.0.1:${port}`,
      });
      const provider = createProvider(settings, env);
      // A first call starts the thread and builds the SDK client there.
      await provider.complete(request);
      Atomics.store(flag, 0, 0);

      const pending = provider.complete(request);
      // Block this thread (no event-loop turn) until the server has the request, or 10 s.
      const blockedUntil = Date.now() + 10_000;
      while (Atomics.load(flag, 0) === 0 && Date.now() < blockedUntil) Atomics.wait(flag, 0, 0, 20);
      const receivedWhileBlocked = Atomics.load(flag, 0) === 1;
      expect((await pending).text).toBe('ok');
      expect(receivedWhileBlocked).toBe(true);
    } finally {
      serverThread.postMessage('close');
      await new Promise((resolve) => serverThread.once('exit', resolve));
    }
  });
});
