/**
 * The Anthropic Messages API behind the neutral ModelProvider: one non-streaming
 * `messages.create` per call, SDK retries off (retry policy lives in retry.ts).
 */
import { createRequire } from 'node:module';
import type * as Sdk from '@anthropic-ai/sdk';
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { providerEntry } from '../../../shared/catalogue/providers';
import { price, type ModelPrice, type ProviderDescriptor } from './descriptor';
import { toProviderError, type SdkErrorClasses } from './errors';
import { roughInputTokens, type RateLimitPacer } from './rate-limits';
import {
  ProviderError,
  type ChatMessage,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type StopReason,
} from './types';
import { keepAliveFetch } from './http-fetch';

/** Its catalogue entry; Anthropic requires `max_tokens`, so the entry's default fills it in. */
const anthropic = providerEntry('anthropic');

/** How to reach Anthropic. */
export interface AnthropicProviderOptions {
  apiKey: string;
  /** Without `/v1` (the SDK adds it). Omitted: the public API. */
  baseUrl?: string | undefined;
  /** Per-call timeout in milliseconds. */
  timeoutMs: number;
  /** Named in auth errors: where the key came from. */
  apiKeyEnv?: string | undefined;
  /** Paces calls under the provider's rate limits (rate-limits.ts). */
  pacer?: RateLimitPacer | undefined;
}

/**
 * The SDK, required on first use: loading it cost a quarter to half a second of every CLI
 * command and of the engine's start, whether or not a study called this provider.
 */
let sdk: typeof Sdk | undefined;
function loadSdk(): typeof Sdk {
  sdk ??= createRequire(__filename)('@anthropic-ai/sdk') as typeof Sdk;
  return sdk;
}

function sdkErrors(): SdkErrorClasses {
  const loaded = loadSdk();
  return {
    SdkError: loaded.AnthropicError,
    APIError: loaded.APIError,
    APIUserAbortError: loaded.APIUserAbortError,
    APIConnectionError: loaded.APIConnectionError,
    APIConnectionTimeoutError: loaded.APIConnectionTimeoutError,
  };
}

/**
 * The request body for `messages.create`. `temperature` is sent only when the request has
 * one: SDK 1.14 no longer types it (App. R: Opus-4.7 rejects it), but the API still takes it
 * for the other models, so it travels as an extra body field.
 */
export type AnthropicCreateParams = Anthropic.MessageCreateParamsNonStreaming & {
  temperature?: number;
};

type BlockParam = Anthropic.ContentBlockParam;
type TurnParam = { role: 'user' | 'assistant'; content: BlockParam[] };

/** Anthropic's prompt-cache marker (a 5-minute cache entry). */
const EPHEMERAL = { type: 'ephemeral' } as const;

function blocksOf(message: ChatMessage): TurnParam {
  if (message.role === 'user') {
    return {
      role: 'user',
      content: message.content ? [{ type: 'text', text: message.content }] : [],
    };
  }
  if (message.role === 'tool') {
    return {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        },
      ],
    };
  }
  // Thinking blocks go back first and unchanged: the API checks them on a tool-use turn.
  const content: BlockParam[] = [...((message.reasoningBlocks ?? []) as BlockParam[])];
  if (message.content) content.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  }
  return { role: 'assistant', content };
}

/** Marks the last block of a turn as the end of a cached prefix (thinking blocks cannot be). */
function markCacheEnd(turn: TurnParam): void {
  const last = turn.content.at(-1);
  if (!last || last.type === 'thinking' || last.type === 'redacted_thinking') return;
  (last as { cache_control?: typeof EPHEMERAL }).cache_control = EPHEMERAL;
}

/**
 * Neutral messages → Anthropic turns. Consecutive same-role turns merge (the API wants
 * user/assistant alternation, and parallel tool results must share one user turn); inside a
 * user turn the tool results come first, as the API requires. Empty text is left out because
 * the API rejects empty text blocks. With `cache`, the first message (the judge's task and
 * trajectory: the prefix every rep of an item and placement shares) and the last (the rep's
 * conversation so far, which its next turn repeats) end cached prefixes.
 */
export function toAnthropicMessages(
  messages: ChatMessage[],
  cache = false,
): Anthropic.MessageParam[] {
  const turns: TurnParam[] = [];
  for (const [index, message] of messages.entries()) {
    const turn = blocksOf(message);
    if (turn.content.length === 0) continue; // dropped before merging, so alternation holds
    if (cache && (index === 0 || index === messages.length - 1)) markCacheEnd(turn);
    const previous = turns.at(-1);
    if (previous && previous.role === turn.role) previous.content.push(...turn.content);
    else turns.push(turn);
  }
  return turns.map((turn) => {
    if (turn.role !== 'user') return turn;
    const results = turn.content.filter((block) => block.type === 'tool_result');
    const others = turn.content.filter((block) => block.type !== 'tool_result');
    return { role: 'user', content: [...results, ...others] };
  });
}

/**
 * The full `messages.create` body for one neutral request. Prompt caching (on unless
 * `cache` is false) puts at most three breakpoints, in the API's prefix order tools → system →
 * messages: after the system prompt (tools and system: shared by every condition that leaves
 * the system prompt alone), after the first message (the trajectory: shared by the reps of one
 * placement; a user-turn cue comes after it, so the uncued and user-placed reps share it too),
 * and after the last message (the rep's own turns so far). A system-placed cue changes the
 * system prompt and an assistant-placed one the trajectory, so each such placement is a cache
 * group of its own: no breakpoint can share what comes after a change.
 */
export function toAnthropicParams(request: ModelRequest, cache = true): AnthropicCreateParams {
  const params: AnthropicCreateParams = {
    model: request.model,
    max_tokens: request.maxTokens ?? anthropic.defaultMaxTokens,
    messages: toAnthropicMessages(request.messages, cache),
  };
  if (request.system) {
    params.system = cache
      ? [{ type: 'text', text: request.system, cache_control: EPHEMERAL }]
      : request.system;
  }
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
    }));
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.thinking) {
    // App. R prints the Opus-4.7 voter's setting as {"thinking": {"type": "adaptive"}}.
    params.thinking =
      request.thinking.type === 'adaptive'
        ? ({ type: 'adaptive' } as unknown as Anthropic.ThinkingConfigParam)
        : { type: 'enabled', budget_tokens: request.thinking.budgetTokens };
  }
  return params;
}

const anthropicMessageSchema = z.object({
  model: z.string().optional(),
  content: z.array(
    z.union([
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({
        type: z.literal('tool_use'),
        id: z.string(),
        name: z.string(),
        input: z.unknown(),
      }),
      z.object({ type: z.string() }),
    ]),
  ),
  stop_reason: z.string().nullable().optional(),
  usage: z.object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    cache_creation_input_tokens: z.number().nullable().optional(),
    cache_read_input_tokens: z.number().nullable().optional(),
  }),
});

function stopReasonOf(reason: string | null | undefined): StopReason {
  if (reason === 'end_turn' || reason === 'tool_use' || reason === 'max_tokens') return reason;
  if (reason === 'model_context_window_exceeded') return 'max_tokens';
  return 'other';
}

/**
 * An Anthropic message (unknown until parsed) → neutral response. Input tokens include cache
 * reads and writes (every prompt token the call consumed); the cache's share is kept apart. Thinking blocks are kept aside, as
 * received, to be sent back with the next turn; server-tool blocks are dropped.
 */
export function fromAnthropicMessage(body: unknown, requestedModel: string): ModelResponse {
  const parsed = anthropicMessageSchema.safeParse(body);
  if (!parsed.success) {
    throw new ProviderError(
      'bad_response',
      `Anthropic sent a message CueLab could not read (${requestedModel}): ` +
        `${parsed.error.issues[0]?.message ?? 'unexpected shape'}. Check the base URL.`,
    );
  }
  const message = parsed.data;
  const raw = (body as { content: unknown[] }).content;
  const reasoningBlocks = raw.filter((block) => {
    const type = (block as { type?: unknown }).type;
    return type === 'thinking' || type === 'redacted_thinking';
  });
  let text = '';
  const toolCalls: ModelResponse['toolCalls'] = [];
  for (const block of message.content) {
    if ('text' in block && block.type === 'text') text += block.text;
    else if ('id' in block && block.type === 'tool_use') {
      toolCalls.push({ id: block.id, name: block.name, input: block.input });
    }
  }
  const usage = message.usage;
  return {
    text,
    toolCalls,
    stopReason: stopReasonOf(message.stop_reason),
    usage: {
      inputTokens:
        usage.input_tokens +
        (usage.cache_creation_input_tokens ?? 0) +
        (usage.cache_read_input_tokens ?? 0),
      outputTokens: usage.output_tokens,
      ...(usage.cache_read_input_tokens ? { cacheReadTokens: usage.cache_read_input_tokens } : {}),
      ...(usage.cache_creation_input_tokens
        ? { cacheWriteTokens: usage.cache_creation_input_tokens }
        : {}),
    },
    model: message.model ?? requestedModel,
    ...(reasoningBlocks.length ? { reasoningBlocks } : {}),
  };
}

/** An Anthropic provider. Each `complete` is exactly one HTTP call. */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const client = new (loadSdk().default)({
    apiKey: options.apiKey,
    // null, not undefined: never fall back to ANTHROPIC_BASE_URL behind the settings' back.
    baseURL: options.baseUrl ?? null,
    maxRetries: 0,
    timeout: options.timeoutMs,
    // Plain keep-alive requests, not undici's fetch (http-fetch.ts).
    fetch: keepAliveFetch,
  });
  const apiKeyEnv = options.apiKeyEnv ?? anthropic.keyVariable;
  return {
    kind: anthropic.kind,
    async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      try {
        const params = toAnthropicParams(request);
        await options.pacer?.acquire(roughInputTokens(params), signal);
        let headers: Headers | undefined;
        let message: unknown;
        try {
          const { data, response } = await client.messages
            .create(params, { signal })
            .withResponse();
          message = data;
          headers = response.headers;
        } catch (error) {
          headers = (error as { headers?: Headers }).headers;
          throw error;
        } finally {
          options.pacer?.release(headers);
        }
        return fromAnthropicMessage(message, request.model);
      } catch (error) {
        throw (
          toProviderError(error, sdkErrors(), {
            providerLabel: anthropic.label,
            model: request.model,
            apiKeyEnv,
            timeoutMs: options.timeoutMs,
            signal,
          }) ?? error
        );
      }
    },
  };
}

/** Anthropic's cache prices: writes 1.25× and reads 0.1× the input price (5-minute cache). */
function priceWithCache(model: string, input: number, output: number): ModelPrice {
  return {
    ...price(model, input, output),
    cacheWritePerMillion: input * 1.25,
    cacheReadPerMillion: input * 0.1,
  };
}

/**
 * List prices (standard tier, no batch discount; cache writes and reads at Anthropic's
 * multipliers). Models released after these were written are left out on purpose: their cost
 * shows as unknown until someone adds the row.
 */
const prices: readonly ModelPrice[] = [
  priceWithCache('claude-opus-4-0', 15, 75),
  priceWithCache('claude-opus-4-20250514', 15, 75),
  priceWithCache('claude-opus-4-1*', 15, 75),
  priceWithCache('claude-opus-4-5*', 5, 25),
  priceWithCache('claude-opus-4-6*', 5, 25),
  // Sonnet 4.5 charges more past 200k input tokens; judge prompts stay well below that.
  priceWithCache('claude-sonnet-4-0', 3, 15),
  priceWithCache('claude-sonnet-4-20250514', 3, 15),
  priceWithCache('claude-sonnet-4-5*', 3, 15),
  priceWithCache('claude-sonnet-4-6*', 3, 15),
  priceWithCache('claude-3-7-sonnet*', 3, 15),
  priceWithCache('claude-haiku-4-5*', 1, 5),
  priceWithCache('claude-3-5-haiku*', 0.8, 4),
];

/** Anthropic's descriptor (registry.ts). */
export const anthropicProvider: ProviderDescriptor = {
  entry: anthropic,
  prices,
  create: (connection) => createAnthropicProvider(connection),
};
