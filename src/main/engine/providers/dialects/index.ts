/**
 * Reads one assistant message of an OpenAI-compatible server into text, tool calls and
 * reasoning, in the dialect the judge's `dialect` option names, or (`auto`) in the first one the
 * reply shows: structured `tool_calls`, Hermes `<tool_call>` tags, bare JSON. A reply that still
 * carries tool-call markers no dialect took (another dialect's tags, a broken call) is refused
 * with its raw text, so it fails its rep in the open instead of being judged as plain text.
 */
import { ProviderError, type ToolCall } from '../types';
import { hermesDialect } from './hermes';
import { jsonDialect, readJsonCalls } from './json-content';
import { readReasoning } from './reasoning';
import { structuredDialect } from './structured';
import type {
  AssistantReply,
  DialectChoice,
  DialectParser,
  StructuredCall,
  ToolDialect,
} from './types';

export type { DialectChoice, StructuredCall, ToolDialect } from './types';
export { parseToolArguments } from './arguments';

/** The parsers, in the order `auto` tries them. */
const parsers: readonly DialectParser[] = [structuredDialect, hermesDialect, jsonDialect];

/**
 * Tool-call syntaxes of other model families (Llama's python tag, Mistral, DeepSeek, Kimi,
 * Qwen3-Coder XML, gpt-oss harmony): left in the text, they mean calls CueLab did not read.
 */
const FOREIGN_MARKERS = [
  '<tool_call>',
  '</tool_call>',
  '<function=',
  '<|python_tag|>',
  '[TOOL_CALLS]',
  '<|tool_call',
  '<｜tool▁call',
  '<|channel|>',
  '<tool_use>',
];

/** A message read: what the judge loop sees, plus how it was read. */
export interface ReadMessage {
  text: string;
  toolCalls: ToolCall[];
  reasoning: string | null;
  /** The dialect its tool calls came in; `structured` for a text-only answer. */
  dialect: ToolDialect;
}

/** Most raw characters an error keeps (the job's stored error is where they are read). */
const RAW_SHOWN = 4000;

/** The refusal of a reply CueLab cannot read, with the raw reply for inspection. */
function unreadable(
  model: string,
  choice: DialectChoice,
  why: string,
  raw: unknown,
): ProviderError {
  const text = JSON.stringify(raw) ?? String(raw);
  const shown =
    text.length > RAW_SHOWN ? `${text.slice(0, RAW_SHOWN)}… (${text.length} characters)` : text;
  return new ProviderError(
    'unreadable_reply',
    `The reply of ${model} is in no tool-call dialect CueLab reads (dialect ${choice}): ${why}. ` +
      `Set the judge's dialect to the server's, or start the server with a tool parser. ` +
      `Raw reply: ${shown}`,
  );
}

/** Why the text left after reading still holds a call, or null when it holds none. */
function leftoverCall(text: string): string | null {
  const marker = FOREIGN_MARKERS.find((candidate) => text.includes(candidate));
  if (marker) return `the text still holds ${marker} that no dialect read`;
  const json = readJsonCalls(text);
  if (typeof json === 'string') return json;
  if (json.toolCalls.length > 0) return 'the text also holds tool calls written as JSON';
  return null;
}

function pick(choice: DialectChoice, reply: AssistantReply): DialectParser {
  if (choice !== 'auto')
    return parsers.find((parser) => parser.name === choice) ?? structuredDialect;
  return parsers.find((parser) => parser.shows(reply)) ?? structuredDialect;
}

/**
 * One chat-completion `message` (already schema-checked) read in `choice`. Throws
 * ProviderError('unreadable_reply') with the raw message when no dialect reads it cleanly.
 */
export function readMessage(
  message: Record<string, unknown>,
  structuredCalls: readonly StructuredCall[],
  choice: DialectChoice,
  model: string,
): ReadMessage {
  const { text, reasoning } = readReasoning(message);
  const reply: AssistantReply = { text, structuredCalls };
  const parser = pick(choice, reply);
  if (parser.name !== 'structured' && structuredCalls.length > 0) {
    throw unreadable(model, choice, `structured tool_calls arrived, not ${parser.name}`, message);
  }
  const reading = parser.read(reply);
  if (typeof reading === 'string') throw unreadable(model, choice, reading, message);
  const leftover = leftoverCall(reading.text);
  if (leftover) throw unreadable(model, choice, leftover, message);
  return { ...reading, reasoning, dialect: parser.name };
}
