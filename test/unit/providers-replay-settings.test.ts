import { describe, expect, it } from 'vitest';
import {
  createReplayProvider,
  describeDifference,
  requestHash,
} from '../../src/main/engine/providers/replay';
import {
  createProvider,
  modelSettingsSchema,
  resolveApiKey,
} from '../../src/main/engine/providers/settings';
import type { ModelRequest, ModelResponse } from '../../src/main/engine/providers/types';

const request: ModelRequest = {
  model: 'm',
  system: 'Judge.',
  messages: [
    { role: 'user', content: 'Go.' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'a', name: 'shell', input: { x: 1, y: 2 } }],
    },
  ],
  tools: [{ name: 'shell', description: 'Run.', inputSchema: { type: 'object' } }],
  temperature: 0.7,
};
const response: ModelResponse = {
  text: 'ok',
  toolCalls: [],
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 2 },
  model: 'm',
};

describe('replay', () => {
  it('hashes what the model saw, independent of key order and sampling settings', () => {
    const reordered = structuredClone(request);
    reordered.messages[1] = {
      toolCalls: [{ input: { y: 2, x: 1 }, name: 'shell', id: 'a' }],
      content: '',
      role: 'assistant',
    };
    expect(requestHash(reordered)).toBe(requestHash(request));
    expect(requestHash({ ...request, temperature: undefined, model: 'other' })).toBe(
      requestHash(request),
    );
    expect(requestHash({ ...request, system: 'Judge!' })).not.toBe(requestHash(request));
  });

  it('names what differs', () => {
    expect(describeDifference(request, { ...request, system: 'x' })).toBe(
      'the system prompt differs',
    );
    expect(describeDifference(request, { ...request, tools: [] })).toBe('the tool list differs');
    const shorter = { ...request, messages: request.messages.slice(0, 1) };
    expect(describeDifference(request, shorter)).toBe(
      'message 1 differs: recorded 2 messages, got 1',
    );
  });

  it('serves copies in order and stops clearly at the end', async () => {
    const replay = createReplayProvider([{ request, response }]);
    expect(replay.remaining()).toBe(1);
    const served = await replay.complete(request);
    expect(served).toEqual(response);
    expect(served).not.toBe(response);
    expect(replay.remaining()).toBe(0);
    await expect(replay.complete(request)).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('the recording has 1 calls') as string,
    });
  });

  it('does not advance on a mismatch', async () => {
    const replay = createReplayProvider([{ request, response }]);
    await expect(replay.complete({ ...request, system: 'changed' })).rejects.toMatchObject({
      message: expect.stringContaining(
        'Replay mismatch at call 1: the system prompt differs',
      ) as string,
    });
    await expect(replay.complete(request)).resolves.toEqual(response);
  });
});

describe('model settings', () => {
  it('fills defaults: temperature 0.7 (App. R) and a 120 s timeout', () => {
    const settings = modelSettingsSchema.parse({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
    expect(settings).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      temperature: 0.7,
      timeoutMs: 120_000,
    });
  });

  it('needs a base URL for an OpenAI-compatible server and a variable name for apiKeyEnv', () => {
    const compatible = modelSettingsSchema.safeParse({
      provider: 'openai-compatible',
      model: 'llama3',
    });
    expect(compatible.success).toBe(false);
    expect(compatible.error?.issues[0]?.path).toEqual(['baseUrl']);
    const badEnv = modelSettingsSchema.safeParse({
      provider: 'openai',
      model: 'gpt-4.1',
      apiKeyEnv: 'sk-123',
    });
    expect(badEnv.success).toBe(false);
  });

  it('reads keys from the environment and says which variable is missing', () => {
    const openai = modelSettingsSchema.parse({ provider: 'openai', model: 'gpt-4.1' });
    expect(resolveApiKey(openai, { OPENAI_API_KEY: 'sk-x' })).toEqual({
      apiKey: 'sk-x',
      apiKeyEnv: 'OPENAI_API_KEY',
    });
    expect(() => createProvider(openai, { OPENAI_API_KEY: '  ' })).toThrow(/Set OPENAI_API_KEY/);
    const custom = modelSettingsSchema.parse({
      provider: 'anthropic',
      model: 'c',
      apiKeyEnv: 'TEAM_KEY',
    });
    expect(() => createProvider(custom, { ANTHROPIC_API_KEY: 'ignored' })).toThrow(
      /Set TEAM_KEY \(named by apiKeyEnv/,
    );
    expect(createProvider(custom, { TEAM_KEY: 'k' }).kind).toBe('anthropic');
  });

  it('lets an OpenAI-compatible server run without a key', () => {
    const local = modelSettingsSchema.parse({
      provider: 'openai-compatible',
      model: 'qwen3',
      baseUrl: 'http://localhost:11434/v1',
    });
    expect(resolveApiKey(local, {})).toEqual({ apiKey: '', apiKeyEnv: undefined });
    expect(createProvider(local, {}).kind).toBe('openai-compatible');
  });
});
