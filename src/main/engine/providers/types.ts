/**
 * One interface over every model source the judge can use: Anthropic, OpenAI, any
 * OpenAI-compatible server, replay of recorded responses, and (later) the synthetic judge.
 * The judge loop speaks only this provider-neutral conversation format; each adapter maps it
 * to its SDK and back, and owns its provider's quirks (ARCHITECTURE.md, `providers`).
 */

/** A tool the model may call; `inputSchema` is JSON Schema for the arguments object. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One tool call requested by the model. `input` is unknown until the tool parses it. */
export interface ToolCall {
  /** Provider-assigned id, echoed back with the result. */
  id: string;
  name: string;
  input: unknown;
}

/** A message in the neutral conversation. The system prompt travels separately. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      toolCalls?: ToolCall[];
      /** Provider reasoning blocks (Anthropic thinking) sent back as received with tool use. */
      reasoningBlocks?: unknown[];
      /** Reasoning text an OpenAI-compatible server returned (kept, never sent back). */
      reasoning?: string;
    }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string; isError?: boolean };

/**
 * Reasoning settings of a judge or meta-judge voter (App. R: the Opus-4.7 voter runs with
 * `{"thinking": {"type": "adaptive"}}`). Omitted: the provider default.
 */
export interface ReasoningOptions {
  /** Anthropic extended thinking: adaptive, or enabled with a token budget. */
  thinking?: { type: 'adaptive' } | { type: 'enabled'; budgetTokens: number };
  /** OpenAI reasoning effort. */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
}

/** Everything one model call needs. */
export interface ModelRequest extends ReasoningOptions {
  model: string;
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Omitted: the provider default applies (App. R: a model family that rejects it). */
  temperature?: number;
  /** Omitted: the adapter's default (Anthropic requires one). */
  maxTokens?: number;
}

/** Tokens of one call, as the provider reported them. */
export interface TokenUsage {
  /** Input tokens read neither from nor into a prompt cache. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache (Anthropic, OpenAI `cached_tokens`). */
  cacheReadTokens?: number;
  /** Input tokens written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
  cacheWriteTokens?: number;
}

/** Why the model stopped. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'other';

/** One model answer in neutral form. */
export interface ModelResponse {
  /** Concatenated text blocks (may be empty when the model only calls tools). */
  text: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  usage: TokenUsage;
  /** Model id the provider says answered. */
  model: string;
  /** Reasoning blocks to send back on the next turn (Anthropic thinking with tool use). */
  reasoningBlocks?: unknown[];
  /** Reasoning text (a `reasoning_content`/`reasoning` field or `<think>` tags). */
  reasoning?: string;
  /** The tool-call dialect the reply was read in (dialects/), for a compatible server. */
  dialect?: string;
}

/** What kind of failure a call met; decides retry vs. report. */
export type ProviderErrorKind =
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'timeout'
  | 'connection'
  | 'auth'
  | 'bad_request'
  | 'temperature_rejected'
  | 'not_found'
  | 'bad_response'
  /** A well-formed reply whose tool calls no dialect reads: fails its rep, raw reply kept. */
  | 'unreadable_reply'
  | 'aborted';

/** A provider failure with what to do about it. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  /**
   * True when retrying could help (429, 5xx, overload, timeout, connection, and one malformed
   * body: a proxy or a server hiccup garbles single answers, and a garbled answer must fail
   * that call, not the study).
   */
  readonly retryable: boolean;
  /** Milliseconds the provider asked us to wait (`retry-after`), when it said. */
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    options: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.retryable = [
      'rate_limited',
      'overloaded',
      'server_error',
      'timeout',
      'connection',
      'bad_response',
    ].includes(kind);
  }
}

/** A model source. `complete` performs exactly one HTTP call (no hidden retries). */
export interface ModelProvider {
  /** Its catalogue kind (src/shared/catalogue/providers.ts), or replay's. */
  readonly kind: string;
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
}
