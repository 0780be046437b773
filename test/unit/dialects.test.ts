import { describe, expect, it } from 'vitest';
import { readMessage } from '../../src/main/engine/providers/dialects';
import { splitThinkTags } from '../../src/main/engine/providers/dialects/reasoning';
import { fromOpenAICompletion } from '../../src/main/engine/providers/openai';
import { ProviderError } from '../../src/main/engine/providers/types';

const read = (content: string, choice: Parameters<typeof readMessage>[2] = 'auto', extra = {}) =>
  readMessage({ content, ...extra }, [], choice, 'm');

function refusal(run: () => unknown): ProviderError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected the reply to be refused');
}

describe('tool-call dialects', () => {
  it('reads several Hermes calls, a fenced one and an unclosed last one', () => {
    const text =
      'Let me look.\n<tool_call>\n{"name": "list_dir", "arguments": {"path": "."}}\n</tool_call>\n' +
      '<tool_call>```json\n{"name": "read_file", "arguments": "{\\"path\\": \\"a.txt\\"}"}\n```</tool_call>\n' +
      '<tool_call>{"name": "read_file", "arguments": {"path": "b.txt"}}';
    const message = read(text);
    expect(message.dialect).toBe('hermes');
    expect(message.text).toBe('Let me look.');
    expect(message.toolCalls).toEqual([
      { id: 'call_hermes_0', name: 'list_dir', input: { path: '.' } },
      { id: 'call_hermes_1', name: 'read_file', input: { path: 'a.txt' } },
      { id: 'call_hermes_2', name: 'read_file', input: { path: 'b.txt' } },
    ]);
  });

  it('reads bare JSON calls: one, several, an array, in fences, with `parameters`', () => {
    expect(read('{"name": "list_dir", "parameters": {"path": "."}}').toolCalls).toEqual([
      { id: 'call_json_0', name: 'list_dir', input: { path: '.' } },
    ]);
    const several = read(
      'First:\n```json\n{"name": "a", "arguments": {}}\n```\nthen\n```\n{"name": "b", "arguments": {"x": 1}}\n```',
    );
    expect(several.dialect).toBe('json');
    expect(several.toolCalls.map((call) => call.name)).toEqual(['a', 'b']);
    expect(several.text).toBe('First:\n\nthen');
    const array = read(
      '[{"type": "function", "function": {"name": "a", "arguments": "{\\"k\\": \\"v\\"}"}}, {"name": "b", "arguments": {}}]',
    );
    expect(array.toolCalls).toEqual([
      { id: 'call_json_0', name: 'a', input: { k: 'v' } },
      { id: 'call_json_1', name: 'b', input: {} },
    ]);
  });

  it('leaves a verdict written as JSON in the text for the verdict reader', () => {
    const message = read(
      'My verdict: {"verdict": "pass", "confidence": 0.9, "rationale": "ok {x}"}',
    );
    expect(message.toolCalls).toEqual([]);
    expect(message.dialect).toBe('structured');
    expect(message.text).toContain('"verdict": "pass"');
  });

  it('reads reasoning from either field and from <think> tags, closed, half-open or unclosed', () => {
    expect(read('answer', 'auto', { reasoning_content: 'r1' }).reasoning).toBe('r1');
    expect(read('answer', 'auto', { reasoning: 'r2' }).reasoning).toBe('r2');
    expect(splitThinkTags('<think>\nplan\n</think>\n\nanswer')).toEqual({
      reasoning: 'plan',
      text: 'answer',
    });
    expect(splitThinkTags('plan, no opening tag\n</think>answer')).toEqual({
      reasoning: 'plan, no opening tag',
      text: 'answer',
    });
    expect(splitThinkTags('<think>cut short')).toEqual({ reasoning: 'cut short', text: '' });
    const unclosed = read('<think>plan<tool_call>{"name": "a", "arguments": {}}</tool_call>');
    expect(unclosed.reasoning).toBe('plan');
    expect(unclosed.toolCalls.map((call) => call.name)).toEqual(['a']);
    // A call written inside the reasoning is not a call the judge made.
    expect(read('<think>{"name": "a", "arguments": {}}</think>done').toolCalls).toEqual([]);
  });

  it('refuses, with the raw reply, shapes no dialect reads and dialects the option rules out', () => {
    const foreign = refusal(() =>
      read('<function=list_dir><parameter=path>.</parameter></function>'),
    );
    expect(foreign.kind).toBe('unreadable_reply');
    expect(foreign.retryable).toBe(false);
    expect(foreign.message).toContain('<function=list_dir>');
    expect(refusal(() => read('<tool_call>not json</tool_call>')).message).toMatch(
      /a <tool_call> block is not a JSON tool call/,
    );
    // Overridden: a Hermes reply to a judge set to `json` is refused, not read as text.
    expect(
      refusal(() => read('<tool_call>{"name": "a", "arguments": {}}</tool_call>', 'json')).message,
    ).toMatch(/dialect json\): the text still holds <tool_call>/);
    const structured = [{ id: 'c1', name: 'a', arguments: '{}' }];
    expect(refusal(() => readMessage({ content: '' }, structured, 'hermes', 'm')).message).toMatch(
      /structured tool_calls arrived, not hermes/,
    );
    // Structured calls and calls in the text at once: which were meant is unknowable.
    expect(
      refusal(() =>
        readMessage({ content: '{"name": "b", "arguments": {}}' }, structured, 'auto', 'm'),
      ).message,
    ).toMatch(/also holds tool calls written as JSON/);
  });

  it('reads cached input tokens apart from the rest', () => {
    const response = fromOpenAICompletion(
      {
        choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 5,
          prompt_tokens_details: { cached_tokens: 800 },
        },
      },
      'm',
    );
    expect(response.usage).toEqual({ inputTokens: 1000, outputTokens: 5, cacheReadTokens: 800 });
  });

  it('reads 1 MB replies of every shape in linear time, with bounded output', () => {
    const mb = 1 << 20;
    const cases = [
      '{'.repeat(mb),
      '['.repeat(mb / 2) + '{'.repeat(mb / 2),
      '<tool_call>'.repeat(mb / 11),
      '<think>'.repeat(mb / 7),
      '\n'.repeat(mb),
      '```\n'.repeat(mb / 4),
      '{"name": "a", "arguments": {"s": "' + 'x'.repeat(mb) + '"}}',
      `prose "with {quotes ${'a'.repeat(mb)}`,
      '{"name": "a", "arguments": {}}\n'.repeat(mb / 32),
    ];
    const started = Date.now();
    for (const text of cases) {
      try {
        const message = read(text);
        expect(message.toolCalls.length).toBeLessThanOrEqual(64);
      } catch (error) {
        expect(error).toBeInstanceOf(ProviderError);
        expect((error as ProviderError).message.length).toBeLessThan(6000);
      }
    }
    // A generous bound that only a quadratic reader would exceed (seconds, not minutes).
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
