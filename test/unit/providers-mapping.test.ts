import { describe, expect, it } from 'vitest';
import {
  fromAnthropicMessage,
  toAnthropicMessages,
  toAnthropicParams,
} from '../../src/main/engine/providers/anthropic';
import {
  fromOpenAICompletion,
  parseToolArguments,
  toOpenAIParams,
} from '../../src/main/engine/providers/openai';
import type { ModelRequest } from '../../src/main/engine/providers/types';

const base: ModelRequest = { model: 'm', system: '', messages: [], tools: [] };

describe('Anthropic mapping', () => {
  it('merges consecutive same-role messages and puts tool results first in a user turn', () => {
    const turns = toAnthropicMessages([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'shell', input: {} }] },
      { role: 'user', content: 'stray note' },
      { role: 'tool', toolCallId: 't1', toolName: 'shell', content: 'out' },
    ]);
    expect(turns).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shell', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'out' },
          { type: 'text', text: 'stray note' },
        ],
      },
    ]);
  });

  it('drops empty messages before merging, so roles still alternate', () => {
    const turns = toAnthropicMessages([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'b' },
    ]);
    expect(turns).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  it('leaves out an empty system prompt, empty tools and an unset temperature', () => {
    const request = { ...base, messages: [{ role: 'user' as const, content: 'hi' }] };
    expect(toAnthropicParams(request, false)).toEqual({
      model: 'm',
      max_tokens: 8192,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    // Cached (the default): the one message ends the cached prefix.
    expect(toAnthropicParams(request).messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }],
      },
    ]);
    expect(toAnthropicParams({ ...base, maxTokens: 100 }).max_tokens).toBe(100);
  });

  it('joins text blocks, keeps thinking aside to send back, counts cache tokens as input and apart', () => {
    const response = fromAnthropicMessage(
      {
        model: 'claude-x',
        content: [
          { type: 'thinking', thinking: '...', signature: 's' },
          { type: 'text', text: '{"a":' },
          { type: 'text', text: '1}' },
        ],
        stop_reason: 'max_tokens',
        usage: {
          input_tokens: 10,
          output_tokens: 3,
          cache_read_input_tokens: 5,
          cache_creation_input_tokens: null,
        },
      },
      'requested',
    );
    expect(response).toEqual({
      text: '{"a":1}',
      toolCalls: [],
      stopReason: 'max_tokens',
      usage: { inputTokens: 15, outputTokens: 3, cacheReadTokens: 5 },
      model: 'claude-x',
      reasoningBlocks: [{ type: 'thinking', thinking: '...', signature: 's' }],
    });
  });

  it('rejects a body that is not a message as bad_response', () => {
    expect(() => fromAnthropicMessage({ hello: 'world' }, 'm')).toThrow(
      expect.objectContaining({ kind: 'bad_response' }),
    );
  });
});

describe('OpenAI mapping', () => {
  it('uses max_completion_tokens for OpenAI and max_tokens for compatible servers', () => {
    const request = { ...base, maxTokens: 42, temperature: 0 };
    expect(toOpenAIParams(request, 'openai')).toMatchObject({
      max_completion_tokens: 42,
      temperature: 0,
    });
    expect(toOpenAIParams(request, 'openai-compatible')).toMatchObject({ max_tokens: 42 });
    expect(toOpenAIParams(base, 'openai')).toEqual({ model: 'm', messages: [] });
  });

  it('parses arguments, keeps invalid JSON raw and reads empty arguments as {}', () => {
    expect(parseToolArguments('{"path":"/tmp"}')).toEqual({ path: '/tmp' });
    expect(parseToolArguments('{"path":')).toBe('{"path":');
    expect(parseToolArguments('')).toEqual({});
    expect(parseToolArguments(undefined)).toEqual({});
  });

  it("reads tool calls under finish_reason 'stop' (some local servers) as tool_use", () => {
    const response = fromOpenAICompletion(
      {
        choices: [
          {
            message: {
              content: null,
              tool_calls: [{ function: { name: 'shell', arguments: '{"command":"ls"}' } }],
            },
            finish_reason: 'stop',
          },
        ],
      },
      'llama3',
    );
    expect(response).toEqual({
      text: '',
      toolCalls: [{ id: 'call_0', name: 'shell', input: { command: 'ls' } }],
      stopReason: 'tool_use',
      usage: { inputTokens: 0, outputTokens: 0 },
      model: 'llama3',
      dialect: 'structured',
    });
  });

  it('maps finish reasons', () => {
    const finish = (reason: string | null) =>
      fromOpenAICompletion({ choices: [{ message: { content: 'x' }, finish_reason: reason }] }, 'm')
        .stopReason;
    expect([finish('stop'), finish('length'), finish('content_filter'), finish(null)]).toEqual([
      'end_turn',
      'max_tokens',
      'other',
      'other',
    ]);
  });

  it('rejects a completion without choices as bad_response', () => {
    expect(() => fromOpenAICompletion({ choices: [] }, 'm')).toThrow(
      expect.objectContaining({ kind: 'bad_response' }),
    );
  });
});
