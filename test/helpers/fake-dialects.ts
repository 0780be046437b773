/**
 * How the fake server's OpenAI route writes a scripted message when it plays an open-model
 * server without a tool parser (shapes from the vLLM, SGLang, Ollama and llama.cpp docs):
 * tool calls in the text as Hermes `<tool_call>` tags or bare JSON, reasoning in a
 * `reasoning_content` / `reasoning` field or in `<think>` tags (also with the opening tag left
 * to the chat template, DeepSeek-R1 style).
 */
import type { FakeToolCall } from './fake-model-server';

/** One way of answering. `structured` is the `tool_calls` field, as OpenAI answers. */
export type FakeDialect =
  'structured' | 'hermes' | 'hermes-unclosed' | 'json' | 'json-fenced' | 'json-array';

/** Every text dialect the fake server speaks. */
export const fakeTextDialects: readonly FakeDialect[] = [
  'hermes',
  'hermes-unclosed',
  'json',
  'json-fenced',
  'json-array',
];

/** The message fields (content, reasoning) of a reply in a text dialect. */
export function textDialectMessage(
  dialect: Exclude<FakeDialect, 'structured'>,
  text: string | undefined,
  calls: readonly FakeToolCall[],
): Record<string, unknown> {
  const args = (call: FakeToolCall) => call.input ?? {};
  const thought = 'The task asks for a file; I should look before deciding.';
  switch (dialect) {
    case 'hermes': {
      // Qwen3 served without a reasoning or tool parser: everything in the text.
      const tags = calls.map(
        (call) =>
          `<tool_call>\n${JSON.stringify({ name: call.name, arguments: args(call) })}\n</tool_call>`,
      );
      return { content: [`<think>\n${thought}\n</think>`, text ?? '', ...tags].join('\n\n') };
    }
    case 'hermes-unclosed': {
      // The opening <think> was in the template (R1 style) and the last call ran to the end.
      const tags = calls.map(
        (call, index) =>
          `<tool_call>\n${JSON.stringify({ name: call.name, arguments: JSON.stringify(args(call)) })}` +
          (index === calls.length - 1 ? '' : '\n</tool_call>'),
      );
      return { content: [`${thought}\n</think>`, text ?? '', ...tags].join('\n') };
    }
    case 'json': {
      // Llama 3.x JSON tool calling: `parameters`, one object per line; reasoning field (Ollama).
      const lines = calls.map((call) =>
        JSON.stringify({ name: call.name, parameters: args(call) }),
      );
      return { content: [text ?? '', ...lines].join('\n').trim(), reasoning: thought };
    }
    case 'json-fenced': {
      // A prompted model: prose, then a fenced object per call; llama.cpp's reasoning_content.
      const fences = calls.map(
        (call) =>
          '```json\n' +
          JSON.stringify({ name: call.name, arguments: args(call) }, null, 2) +
          '\n```',
      );
      const prose = calls.length ? 'I will use the tools now.' : '';
      return {
        content: [text ?? '', prose, ...fences].join('\n\n').trim(),
        reasoning_content: thought,
      };
    }
    case 'json-array': {
      const array = calls.map((call) => ({
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(args(call)) },
      }));
      const parts = [`<think>${thought}</think>`, text ?? ''];
      if (calls.length) parts.push(JSON.stringify(array));
      return { content: parts.join('\n').trim() };
    }
  }
}
