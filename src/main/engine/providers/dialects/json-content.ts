/**
 * Bare JSON tool calls in the text: one object, several objects, or an array of them, bare or
 * in ```json fences, among prose or alone (Llama 3.x JSON tool calling; models prompted to
 * answer in JSON when the server has no tool parser). A JSON object that is no call (a verdict
 * written as text) stays in the text for the verdict reader.
 */
import { callsFromJson } from './call-shape';
import { jsonSpans, parseJson } from './json-spans';
import { MAX_CALLS_PER_MESSAGE, type DialectParser, type DialectReading } from './types';

/** Lines that are only a fence (```, ```json) once the JSON inside was taken out. */
const FENCE_LINE = /^[ \t]*```[a-z]*[ \t]*\r?$/gm;

/** The calls written as JSON in `text`, and the text without them. */
export function readJsonCalls(text: string): DialectReading | string {
  const toolCalls: DialectReading['toolCalls'] = [];
  const kept: string[] = [];
  let at = 0;
  const nextId = (offset: number) => `call_json_${toolCalls.length + offset}`;
  for (const span of jsonSpans(text)) {
    const calls = callsFromJson(parseJson(text.slice(span.start, span.end)), nextId);
    if (!calls) continue;
    kept.push(text.slice(at, span.start));
    at = span.end;
    toolCalls.push(...calls);
    if (toolCalls.length > MAX_CALLS_PER_MESSAGE) {
      return `more than ${MAX_CALLS_PER_MESSAGE} tool calls in one message`;
    }
  }
  kept.push(text.slice(at));
  const joined = kept.join('');
  const rest =
    toolCalls.length > 0 ? joined.replace(FENCE_LINE, '').replace(/\n{3,}/g, '\n\n') : joined;
  return { text: rest.trim(), toolCalls };
}

/** The bare-JSON dialect. */
export const jsonDialect: DialectParser = {
  name: 'json',
  shows: (reply) => {
    const reading = readJsonCalls(reply.text);
    return typeof reading === 'string' || reading.toolCalls.length > 0;
  },
  read: (reply) => readJsonCalls(reply.text),
};
