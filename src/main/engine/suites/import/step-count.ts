/**
 * The count check of every import: the agent actions a stranger's source shows (tool calls,
 * function-call items, tool_use blocks, text actions in a code block) against those the item
 * keeps, so an import that recovers fewer steps than the source holds says so instead of
 * handing the judge a shorter run.
 */
import type { AgentMessage } from '../../../../shared/trajectory';

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a text holds an action in a fenced code block (mini-swe-agent, SWE-agent 0.x). */
function hasCodeAction(text: string): boolean {
  const open = text.indexOf('```');
  return open >= 0 && text.indexOf('```', open + 3) > open;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

/**
 * Agent actions in a raw list of messages, items or steps, in any dialect the importers read:
 * an entry's `tool_calls`, its content's `tool_use` blocks, a `function_call` item, else an
 * assistant (or agent) turn whose text holds a fenced action.
 */
export function sourceActions(raw: readonly unknown[]): number {
  let count = 0;
  for (const entry of raw) {
    if (!isObject(entry)) continue;
    if (entry.type === 'function_call') {
      count += 1;
      continue;
    }
    const calls = Array.isArray(entry.tool_calls) ? entry.tool_calls.length : 0;
    const uses = Array.isArray(entry.content)
      ? entry.content.filter((part) => isObject(part) && part.type === 'tool_use').length
      : 0;
    if (calls + uses > 0) {
      count += calls + uses;
      continue;
    }
    const speaker = entry.role ?? entry.source;
    if ((speaker === 'assistant' || speaker === 'agent') && hasCodeAction(textOf(entry.content))) {
      count += 1;
    }
  }
  return count;
}

/** Agent actions an imported trajectory keeps: tool calls, and text actions as above. */
export function storedActions(trajectory: readonly AgentMessage[]): number {
  let count = 0;
  for (const message of trajectory) {
    if (message.role !== 'assistant') continue;
    const calls = message.tool_calls?.length ?? 0;
    if (calls > 0) count += calls;
    else if (hasCodeAction(textOf(message.content))) count += 1;
  }
  return count;
}

/** The warning for an item that keeps fewer actions than its source shows, or undefined. */
export function stepWarning(
  id: string,
  source: string,
  check: { source: number; stored: number; what: string },
): string | undefined {
  if (check.stored >= check.source) return undefined;
  return (
    `${id}: ${source} shows ${check.source} ${check.what} but only ${check.stored} ` +
    `were recovered; the judge would not see the other ${check.source - check.stored}`
  );
}
