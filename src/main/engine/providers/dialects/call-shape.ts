/**
 * One tool call written as JSON in text, in the shapes the open-model chat templates use:
 * `{"name", "arguments"}` (Hermes, Qwen), `{"name", "parameters"}` (Llama 3.x JSON tool calls),
 * or OpenAI's own `{"type": "function", "function": {"name", "arguments"}}`.
 */
import type { ToolCall } from '../types';
import { parseJson } from './json-spans';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Arguments as an object: a JSON string is parsed; a string that is not JSON stays as is. */
function argumentsOf(value: unknown): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return {};
  return parseJson(value) ?? value;
}

/** The call a JSON value describes, or null when it is no tool call. */
export function callFromJson(value: unknown, id: string): ToolCall | null {
  if (!isRecord(value)) return null;
  const inner = isRecord(value.function) ? value.function : value;
  const { name } = inner;
  if (typeof name !== 'string' || name.trim() === '') return null;
  const args = 'arguments' in inner ? inner.arguments : inner.parameters;
  if (!('arguments' in inner) && !('parameters' in inner)) return null;
  return { id, name: name.trim(), input: argumentsOf(args) };
}

/** The calls a parsed span holds: one object, or an array of them (all must be calls). */
export function callsFromJson(
  value: unknown,
  nextId: (offset: number) => string,
): ToolCall[] | null {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return null;
  const calls: ToolCall[] = [];
  for (const item of items) {
    const call = callFromJson(item, nextId(calls.length));
    if (!call) return null;
    calls.push(call);
  }
  return calls;
}
