/** The `tool_calls` field: a server whose tool parser ran (OpenAI, vLLM with a parser, …). */
import { parseToolArguments } from './arguments';
import type { DialectParser } from './types';

/** Structured tool calls, ids as the server gave them (`call_<n>` when it gave none). */
export const structuredDialect: DialectParser = {
  name: 'structured',
  shows: (reply) => reply.structuredCalls.length > 0,
  read: (reply) => ({
    text: reply.text,
    toolCalls: reply.structuredCalls.map((call, index) => ({
      id: call.id || `call_${index}`,
      name: call.name,
      input: parseToolArguments(call.arguments),
    })),
  }),
};
