/**
 * Hermes / Qwen tool calls in the text: `<tool_call>{"name": …, "arguments": …}</tool_call>`,
 * one or several per message; the last may be left unclosed when generation stopped at the
 * end-of-turn token (vLLM's hermes parser reads it to the end, so do we).
 */
import { callsFromJson } from './call-shape';
import { parseJson } from './json-spans';
import { MAX_CALLS_PER_MESSAGE, type DialectParser, type DialectReading } from './types';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

/** A fenced body (```json … ```) without its fence. */
function unfenced(body: string): string {
  const trimmed = body.trim();
  if (!trimmed.startsWith('```') || !trimmed.endsWith('```') || trimmed.length < 6) return trimmed;
  const firstLine = trimmed.indexOf('\n');
  if (firstLine < 0) return trimmed;
  return trimmed.slice(firstLine + 1, -3).trim();
}

function readHermes(text: string): DialectReading | string {
  const toolCalls: DialectReading['toolCalls'] = [];
  const kept: string[] = [];
  let at = 0;
  const nextId = (offset: number) => `call_hermes_${toolCalls.length + offset}`;
  for (;;) {
    const open = text.indexOf(OPEN, at);
    if (open < 0) break;
    kept.push(text.slice(at, open));
    const close = text.indexOf(CLOSE, open + OPEN.length);
    const end = close >= 0 ? close : text.length;
    const body = unfenced(text.slice(open + OPEN.length, end));
    const calls = callsFromJson(parseJson(body), nextId);
    if (!calls) {
      const shown = body.length > 200 ? `${body.slice(0, 200)}…` : body;
      return `a <tool_call> block is not a JSON tool call ({"name", "arguments"}): ${shown}`;
    }
    toolCalls.push(...calls);
    if (toolCalls.length > MAX_CALLS_PER_MESSAGE) {
      return `more than ${MAX_CALLS_PER_MESSAGE} tool calls in one message`;
    }
    at = close >= 0 ? close + CLOSE.length : text.length;
  }
  kept.push(text.slice(at));
  return { text: kept.join('').trim(), toolCalls };
}

/** The Hermes dialect (vLLM/SGLang `hermes`, Qwen 2.5/3 chat templates, Ollama raw output). */
export const hermesDialect: DialectParser = {
  name: 'hermes',
  shows: (reply) => reply.text.includes(OPEN),
  read: (reply) => readHermes(reply.text),
};
