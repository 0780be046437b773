import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/main/engine/providers/anthropic';
import { createOpenAIProvider } from '../../src/main/engine/providers/openai';
import { costOf } from '../../src/main/engine/providers/pricing';
import { createReplayProvider } from '../../src/main/engine/providers/replay';
import { callWithRetry, type RetryOptions } from '../../src/main/engine/providers/retry';
import { createProvider, modelSettingsSchema } from '../../src/main/engine/providers/settings';
import { createTemperaturePolicy } from '../../src/main/engine/providers/temperature-policy';
import { ProviderError, type ModelRequest } from '../../src/main/engine/providers/types';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';

const description = 'Run a shell command in the task container.';
const parameters = { type: 'object', properties: { command: { type: 'string' } } };

/** A conversation with a tool round trip: two parallel calls, their results, and a nudge. */
const conversation: ModelRequest = {
  model: 'claude-sonnet-4-6',
  system: 'You are a careful judge.',
  tools: [{ name: 'shell', description, inputSchema: parameters }],
  temperature: 0.7,
  messages: [
    { role: 'user', content: 'Judge this trajectory.' },
    {
      role: 'assistant',
      content: 'Let me look.',
      toolCalls: [
        { id: 'call_1', name: 'shell', input: { command: 'ls' } },
        { id: 'call_2', name: 'shell', input: { command: 'cat x' } },
      ],
    },
    { role: 'tool', toolCallId: 'call_1', toolName: 'shell', content: 'a\nb' },
    { role: 'tool', toolCallId: 'call_2', toolName: 'shell', content: 'no x', isError: true },
    { role: 'user', content: 'Budget reached: give your verdict.' },
  ],
};

function toolUse(id: string, command: string) {
  return { type: 'tool_use', id, name: 'shell', input: { command } };
}
function functionCall(id: string, args: string) {
  return { id, type: 'function', function: { name: 'shell', arguments: args } };
}

/** Retry options that never really wait: the delays are recorded instead. */
function instantRetry(extra: RetryOptions = {}): RetryOptions & { waited: number[] } {
  const waited: number[] = [];
  const sleep = (ms: number) => Promise.resolve(void waited.push(ms));
  const defaults = { random: () => 0.5, temperaturePolicy: createTemperaturePolicy() };
  return { waited, sleep, ...defaults, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('providers over HTTP with the real SDKs', () => {
  let server: FakeModelServer;
  const anthropic = (timeoutMs = 5_000) =>
    createAnthropicProvider({ apiKey: 'sk-ant-test', baseUrl: server.url, timeoutMs });
  const openai = (timeoutMs = 5_000) =>
    createOpenAIProvider({ kind: 'openai', apiKey: 'sk-t', baseUrl: server.openaiUrl, timeoutMs });
  const lastSent = (route: 'anthropic' | 'openai') => server.requests(route).at(-1)!;

  beforeAll(async () => {
    server = await startFakeModelServer({ rejectTemperatureFor: ['claude-opus-4-7', 'o3'] });
  });
  afterAll(() => server.close());
  beforeEach(() => server.setLatency(0));

  it('maps an Anthropic request (system, tools, merged tool results, cache breakpoints) and its tool call', async () => {
    const usage = { inputTokens: 1_000, outputTokens: 200 };
    const call = { name: 'shell', input: { command: 'pwd' }, id: 'toolu_9' };
    server.script('anthropic', [reply.toolCalls([call], { text: 'Checking.', usage })]);
    const response = await anthropic().complete(conversation);
    const bothToolUses = [toolUse('call_1', 'ls'), toolUse('call_2', 'cat x')];
    const ephemeral = { type: 'ephemeral' };

    const sent = lastSent('anthropic');
    // SDK 1.14 sends the key as a bearer token; older versions used x-api-key.
    expect(String(sent.headers['x-api-key'] ?? sent.headers.authorization)).toMatch(/sk-ant-test/);
    expect(sent.body).toEqual({
      ...{ model: 'claude-sonnet-4-6', max_tokens: 8192, temperature: 0.7 },
      // Prompt-cache breakpoints: the system prompt, the trajectory message, the last message.
      system: [{ type: 'text', text: 'You are a careful judge.', cache_control: ephemeral }],
      tools: [{ name: 'shell', description, input_schema: parameters }],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Judge this trajectory.', cache_control: ephemeral }],
        },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Let me look.' }, ...bothToolUses],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'a\nb' },
            { type: 'tool_result', tool_use_id: 'call_2', content: 'no x', is_error: true },
            {
              type: 'text',
              text: 'Budget reached: give your verdict.',
              cache_control: ephemeral,
            },
          ],
        },
      ],
    });
    const { id, name, input } = call;
    expect(response).toEqual({
      ...{ text: 'Checking.', toolCalls: [{ id, name, input }], stopReason: 'tool_use' },
      ...{ usage, model: 'claude-sonnet-4-6' },
    });
    // Sonnet 4.x lists at $3 / $15 per million tokens.
    expect(costOf(response.usage, 'anthropic', response.model)).toBeCloseTo(0.003 + 0.003, 10);
  });

  it('maps an OpenAI request (system first, JSON-string arguments, tool messages)', async () => {
    const usage = { inputTokens: 2_000_000, outputTokens: 0 };
    server.script('openai', [
      reply.toolCalls([
        { name: 'shell', input: { command: 'ls -la' }, id: 'call_ok' },
        { name: 'shell', rawArguments: '{"command": "ls', id: 'call_bad' },
      ]),
      reply.text('{"verdict":"pass"}', { usage }),
    ]);
    const request = { ...conversation, model: 'gpt-4.1', maxTokens: 500 };
    const first = await openai().complete(request);
    const [ls, catX] = ['{"command":"ls"}', '{"command":"cat x"}'];

    expect(lastSent('openai').headers.authorization).toBe('Bearer sk-t');
    expect(lastSent('openai').body).toEqual({
      ...{ model: 'gpt-4.1', temperature: 0.7, max_completion_tokens: 500 },
      tools: [{ type: 'function', function: { name: 'shell', description, parameters } }],
      messages: [
        { role: 'system', content: 'You are a careful judge.' },
        { role: 'user', content: 'Judge this trajectory.' },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [functionCall('call_1', ls), functionCall('call_2', catX)],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'a\nb' },
        { role: 'tool', tool_call_id: 'call_2', content: 'no x' },
        { role: 'user', content: 'Budget reached: give your verdict.' },
      ],
    });
    expect(first.stopReason).toBe('tool_use');
    expect(first.toolCalls).toEqual([
      { id: 'call_ok', name: 'shell', input: { command: 'ls -la' } },
      { id: 'call_bad', name: 'shell', input: '{"command": "ls' }, // kept raw for the judge
    ]);

    const echo = { role: 'assistant' as const, content: '', toolCalls: first.toolCalls };
    const followUp = await openai().complete({ ...request, messages: [...request.messages, echo] });
    const echoed = lastSent('openai').body.messages as { tool_calls?: unknown }[];
    expect(echoed.at(-1)?.tool_calls).toEqual([
      functionCall('call_ok', '{"command":"ls -la"}'),
      functionCall('call_bad', '{"command": "ls'),
    ]);
    expect(followUp).toMatchObject({ text: '{"verdict":"pass"}', stopReason: 'end_turn' });
    expect(costOf(followUp.usage, 'openai', 'gpt-4.1')).toBe(4); // 2M input tokens at $2/M
  });

  it('sends a placeholder key and max_tokens to an OpenAI-compatible server', async () => {
    server.script('openai', [reply.text('ok')]);
    const settings = modelSettingsSchema.parse({
      ...{ provider: 'openai-compatible', model: 'qwen3:8b', baseUrl: server.openaiUrl },
      ...{ apiKeyEnv: 'LOCAL_LLM_KEY', maxTokens: 64 },
    });
    const provider = createProvider(settings, {});
    const response = await provider.complete({ ...conversation, model: 'qwen3:8b', maxTokens: 64 });
    expect(lastSent('openai').headers.authorization).toBe('Bearer not-needed');
    expect(lastSent('openai').body).toMatchObject({ max_tokens: 64 });
    expect(lastSent('openai').body).not.toHaveProperty('max_completion_tokens');
    expect(response.text).toBe('ok');
    expect(costOf(response.usage, provider.kind, settings.model)).toBe(0);
  });

  it('retries a 429 after its retry-after and counts the call once', async () => {
    server.script('anthropic', [
      reply.error(429, { message: 'Too many requests' }, { 'retry-after': '2' }),
      reply.text('done', { usage: { inputTokens: 10, outputTokens: 5 } }),
    ]);
    const before = server.callCount('anthropic');
    const retry = instantRetry();
    const result = await callWithRetry(anthropic(), conversation, retry);

    expect(server.callCount('anthropic') - before).toBe(2);
    expect(result.attempts).toBe(2);
    expect(result.retries).toHaveLength(1);
    expect(result.retries[0]).toMatchObject({ kind: 'rate_limited', retryAfterMs: 2000 });
    expect(retry.waited).toEqual([2000]); // jitter (500 ms) is below what the provider asked
    expect(result.response.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
  });

  it('retries a 529 overloaded_error with backoff', async () => {
    server.script('anthropic', [reply.overloaded(), reply.overloaded(), reply.text('fine')]);
    const retry = instantRetry();
    const result = await callWithRetry(anthropic(), conversation, retry);
    expect(result.retries.map((info) => info.kind)).toEqual(['overloaded', 'overloaded']);
    expect(retry.waited).toEqual([500, 1000]); // random 0.5 × 1 s, 0.5 × 2 s
    expect(result.response.text).toBe('fine');
  });

  it('reports a 401 at once, without retrying, naming the variable to set', async () => {
    server.script('anthropic', [reply.error(401, { message: 'invalid x-api-key' })]);
    server.script('openai', [reply.error(401, { message: 'Incorrect API key provided' })]);
    const before = server.callCount();
    const anthropicError = await failure(callWithRetry(anthropic(), conversation, instantRetry()));
    const openaiError = await failure(callWithRetry(openai(), conversation, instantRetry()));
    expect(server.callCount() - before).toBe(2);
    expect(anthropicError).toMatchObject({ kind: 'auth', status: 401, retryable: false });
    expect(anthropicError.message).toContain('Set ANTHROPIC_API_KEY');
    expect(openaiError.message).toContain('Set OPENAI_API_KEY');
  });

  it.each([
    ['anthropic', 'claude-opus-4-7'],
    ['openai', 'o3'],
  ] as const)(
    '%s: a model that rejects temperature is retried without it, then never sent it (App. R)',
    async (route, model) => {
      server.script(route, [reply.text('first'), reply.text('second')]);
      const saved: unknown[] = [];
      const temperaturePolicy = createTemperaturePolicy({ persist: (list) => saved.push(list) });
      const provider = route === 'anthropic' ? anthropic() : openai();
      const before = server.callCount(route);
      const request = { ...conversation, model };

      const first = await callWithRetry(provider, request, instantRetry({ temperaturePolicy }));
      const second = await callWithRetry(provider, request, instantRetry({ temperaturePolicy }));

      const sent = server.requests(route).slice(before);
      expect(sent.map(({ body }) => body.temperature)).toEqual([0.7, undefined, undefined]);
      expect(first).toMatchObject({ attempts: 2, retries: [], temperatureDropped: true });
      expect(second).toMatchObject({ attempts: 1, temperatureDropped: true });
      expect(second.response.text).toBe('second');
      expect(saved).toEqual([[{ providerKind: route, model }]]);
    },
  );

  it.each([
    [404, 'not_found', 'Check the model name'],
    [400, 'bad_request', 'Check the model settings'],
    [500, 'server_error', 'retries with backoff'],
  ] as const)('maps a %i to %s with advice', async (status, kind, advice) => {
    server.script('anthropic', [reply.error(status, { message: 'from the server' })]);
    const error = await failure(anthropic().complete(conversation));
    expect(error).toMatchObject({ kind, status, retryable: status === 500 });
    expect(error.message).toContain(advice);
  });

  it('maps a server slower than timeoutMs to a retryable timeout', async () => {
    server.setLatency(1_000);
    server.script('anthropic', [reply.text('too late')]);
    server.script('openai', [reply.text('too late')]);
    const anthropicError = await failure(anthropic(150).complete(conversation));
    const openaiError = await failure(openai(150).complete(conversation));
    for (const error of [anthropicError, openaiError]) {
      expect(error).toMatchObject({ kind: 'timeout', retryable: true });
      expect(error.message).toContain('timeoutMs');
    }
  });

  it('maps an aborted call to aborted, and does not retry it', async () => {
    server.setLatency(1_000);
    server.script('anthropic', [reply.text('never seen')]);
    server.script('openai', [reply.text('never seen')]);
    for (const provider of [anthropic(), openai()]) {
      const before = server.callCount();
      const signal = AbortSignal.timeout(50);
      const error = await failure(callWithRetry(provider, conversation, instantRetry({ signal })));
      expect(error).toMatchObject({ kind: 'aborted', retryable: false });
      expect(server.callCount() - before).toBe(1);
    }
  });

  it('maps a refused connection to a retryable connection error', async () => {
    const closed = await startFakeModelServer();
    await closed.close();
    const provider = createAnthropicProvider({ apiKey: 'k', baseUrl: closed.url, timeoutMs: 1e3 });
    const error = await failure(provider.complete(conversation));
    expect(error).toMatchObject({ kind: 'connection', retryable: true });
  });

  it('replays recorded calls and names the first differing message on a mismatch', async () => {
    server.script('anthropic', [reply.toolCall('shell', { command: 'ls' })]);
    const request = { ...conversation, messages: conversation.messages.slice(0, 4) };
    const response = await anthropic().complete(request);
    const replay = createReplayProvider([{ request, response }]);
    const callsBefore = server.callCount();

    const changed = structuredClone(request);
    changed.messages[2] = { role: 'tool', toolCallId: 'call_1', toolName: 'shell', content: 'CUE' };
    const mismatch = await failure(replay.complete(changed));
    expect(mismatch).toMatchObject({ kind: 'bad_request' });
    expect(mismatch.message).toMatch(/call 1: message 2 differs/);
    await expect(replay.complete(request)).resolves.toEqual(response);
    expect((await failure(replay.complete(request))).message).toContain('Replay ran out');
    expect(server.callCount()).toBe(callsBefore);
  });
});
