/**
 * Chat messages in the dialects real harnesses write, turned into CueLab's trajectory
 * (OpenAI style): OpenAI chat messages, Anthropic content blocks (tool_use / tool_result), and
 * OpenAI Responses items (function_call / function_call_output). Unknown shapes are errors
 * naming the message, never silently dropped.
 */
import type { AgentMessage, AgentToolCall } from '../../../../shared/trajectory';
import { ImportProblem } from './types';

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a content field: a string, or the text parts of a list of blocks. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (typeof part === 'string') return part;
        if (!isObject(part)) return '';
        if (typeof part.text === 'string') return part.text;
        if (part.type === 'image' || part.type === 'image_url') return '[image]';
        return '';
      })
      .filter((text) => text.length > 0)
      .join('\n');
  }
  if (content === null || content === undefined) return '';
  return JSON.stringify(content);
}

function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

function role(value: unknown, where: string): AgentMessage['role'] {
  if (value === 'system' || value === 'user' || value === 'assistant' || value === 'tool') {
    return value;
  }
  if (value === 'developer') return 'system';
  throw new ImportProblem(where, `role: "${String(value)}" is not system, user, assistant or tool`);
}

/**
 * Converts a message list in any of the three dialects; `path` labels errors. Messages whose
 * role is in `dropRoles` (e.g. mini-swe-agent's final "exit") are left out.
 */
export function convertMessages(
  raw: unknown,
  path: string,
  dropRoles: readonly string[] = [],
): AgentMessage[] {
  if (!Array.isArray(raw)) throw new ImportProblem(path, 'messages: expected a list');
  const out: AgentMessage[] = [];
  raw.forEach((message, index) => {
    const where = `${path}: messages.${index}`;
    if (!isObject(message)) throw new ImportProblem(where, 'expected an object');
    if (typeof message.role === 'string' && dropRoles.includes(message.role)) return;
    if (message.type === 'function_call') {
      const call = responsesCall(message, where);
      // The Agents SDK writes each call of one turn as its own item after the turn's text
      // (MCPMark's `_convert_to_sdk_format`): they are one assistant message again here.
      const last = out[out.length - 1];
      if (last?.role === 'assistant' && !followsToolResult(raw, index)) {
        last.tool_calls = [...(last.tool_calls ?? []), ...call.tool_calls!];
      } else out.push(call);
      return;
    }
    if (message.type === 'function_call_output') {
      out.push({
        role: 'tool',
        content: outputText(message.output),
        tool_call_id: typeof message.call_id === 'string' ? message.call_id : '',
      });
      return;
    }
    if (message.type === 'reasoning') return; // hidden chain of thought: not what the agent showed
    if (Array.isArray(message.content) && message.content.some(isAnthropicBlock)) {
      out.push(...anthropicMessage(message, where));
      return;
    }
    out.push(openAiMessage(message, where));
  });
  return out;
}

/** Whether item `index` comes right after a tool result (a new turn, never merged back). */
function followsToolResult(raw: unknown[], index: number): boolean {
  const previous = raw[index - 1];
  return !isObject(previous) || previous.type === 'function_call_output';
}

/**
 * A Responses `function_call_output`: MCPMark stores it as a JSON string of an MCP text block
 * (`{"type":"text","text":…}`) or of a list of them; the judge sees the text, not the wrapper.
 * Real MCPMark runs with postgres-mcp wrap once more: the block's text is the server's whole
 * CallToolResult (eval-sys/mcpmark-community-experiments, see PROVENANCE.md).
 */
function outputText(output: unknown): string {
  if (typeof output === 'string' && /^\s*[[{]/.test(output)) {
    try {
      const parsed = JSON.parse(output) as unknown;
      if (isObject(parsed) && parsed.type === 'text' && typeof parsed.text === 'string') {
        return callToolResultText(parsed.text) ?? parsed.text;
      }
      if (Array.isArray(parsed) && parsed.every((part) => isObject(part) && part.type === 'text'))
        return contentText(parsed);
    } catch {
      // Not JSON after all: the string is the output.
    }
  }
  return contentText(output);
}

/**
 * An MCP CallToolResult serialized as text (`{content: [blocks], isError, …}`): its blocks'
 * text, with "Error: " first when the server flagged the call failed and the text does not say
 * so already (the replays skip failed calls by that prefix). Undefined for any other text.
 */
export function callToolResultText(text: string): string | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !Array.isArray(parsed.content) || typeof parsed.isError !== 'boolean')
    return undefined;
  const body = contentText(parsed.content);
  return parsed.isError && !/^\s*error\b/i.test(body) ? `Error: ${body}` : body;
}

function responsesCall(message: Loose, where: string): AgentMessage {
  const id = message.call_id ?? message.id;
  if (typeof id !== 'string' || typeof message.name !== 'string') {
    throw new ImportProblem(where, 'function_call: needs call_id and name');
  }
  return {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id,
        type: 'function',
        function: { name: message.name, arguments: argumentsText(message.arguments) },
      },
    ],
  };
}

function isAnthropicBlock(block: unknown): boolean {
  return isObject(block) && (block.type === 'tool_use' || block.type === 'tool_result');
}

function anthropicMessage(message: Loose, where: string): AgentMessage[] {
  const blocks = message.content as unknown[];
  const text: string[] = [];
  const calls: AgentToolCall[] = [];
  const results: AgentMessage[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') text.push(block.text);
    if (block.type === 'tool_use') {
      if (typeof block.id !== 'string' || typeof block.name !== 'string') {
        throw new ImportProblem(where, 'tool_use: needs id and name');
      }
      calls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: argumentsText(block.input) },
      });
    }
    if (block.type === 'tool_result') {
      results.push({
        role: 'tool',
        content: contentText(block.content),
        tool_call_id: typeof block.tool_use_id === 'string' ? block.tool_use_id : '',
      });
    }
  }
  const out: AgentMessage[] = [];
  if (text.length > 0 || calls.length > 0) {
    out.push({
      role: results.length > 0 && calls.length === 0 ? 'user' : role(message.role, where),
      content: text.length > 0 ? text.join('\n') : null,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    });
  }
  return [...results, ...out];
}

function openAiMessage(message: Loose, where: string): AgentMessage {
  const content = contentText(message.content);
  const converted: AgentMessage = {
    role: role(message.role, where),
    // A tool message may hold the MCP server's whole CallToolResult as text (Supabase's runs).
    content: message.role === 'tool' ? (callToolResultText(content) ?? content) : content,
  };
  if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
    converted.tool_calls = message.tool_calls.map((call, index) => {
      if (!isObject(call))
        throw new ImportProblem(`${where}.tool_calls.${index}`, 'expected an object');
      const fn = isObject(call.function) ? call.function : call;
      const name = fn.name ?? fn.function;
      if (typeof name !== 'string' || name.length === 0) {
        throw new ImportProblem(`${where}.tool_calls.${index}`, 'function.name: missing');
      }
      const id = typeof call.id === 'string' && call.id ? call.id : `call-${index}`;
      return {
        id,
        type: 'function' as const,
        function: { name, arguments: argumentsText(fn.arguments) },
      };
    });
  }
  const callId =
    typeof message.tool_call_id === 'string'
      ? message.tool_call_id
      : Array.isArray(message.tool_call_ids) && typeof message.tool_call_ids[0] === 'string'
        ? message.tool_call_ids[0]
        : undefined;
  if (callId) converted.tool_call_id = callId;
  const name = typeof message.name === 'string' ? message.name : message.function;
  if (converted.role === 'tool' && typeof name === 'string') converted.name = name;
  return converted;
}

/** The first user message's text: the task the agent was given, when nothing else says. */
export function firstUserText(messages: readonly AgentMessage[]): string | undefined {
  const first = messages.find((message) => message.role === 'user' && message.content);
  return first?.content ?? undefined;
}
