/**
 * OpenAI Chat Completions behind the neutral ModelProvider, for OpenAI itself and for any
 * OpenAI-compatible server (vLLM, Ollama, LM Studio, llama.cpp). One non-streaming
 * `chat.completions.create` per call, SDK retries off (retry policy lives in retry.ts).
 */
import { createRequire } from 'node:module';
import type * as Sdk from 'openai';
import type OpenAI from 'openai';
import { providerEntry } from '../../../shared/catalogue/providers';
import { price, type ModelPrice, type ProviderDescriptor } from './descriptor';
import { toProviderError, type SdkErrorClasses } from './errors';
import { roughInputTokens, type RateLimitPacer } from './rate-limits';
import type { DialectChoice } from './dialects';
import { fromOpenAICompletion } from './openai-reply';
import type { ModelProvider, ModelRequest, ModelResponse } from './types';
import { keepAliveFetch } from './http-fetch';

export { fromOpenAICompletion, parseToolArguments } from './openai-reply';

/** OpenAI's own API; every other kind speaking Chat Completions is a compatible server. */
const openai = providerEntry('openai');

/** Local servers ignore the key, but the SDK insists on one. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** How to reach an OpenAI-style endpoint. */
export interface OpenAIProviderOptions {
  /** The provider kind it reports: OpenAI's own, or a compatible server's. */
  kind: string;
  /** Empty for a local server that needs none: a placeholder is sent. */
  apiKey: string;
  /** With `/v1`, e.g. `http://localhost:11434/v1`. Omitted: the public OpenAI API. */
  baseUrl?: string | undefined;
  /** Per-call timeout in milliseconds. */
  timeoutMs: number;
  /** Named in auth errors: where the key came from. */
  apiKeyEnv?: string | undefined;
  /** Paces calls under the provider's rate limits (rate-limits.ts). */
  pacer?: RateLimitPacer | undefined;
  /** How tool calls and reasoning come back (dialects/); OpenAI's own API: structured. */
  dialect?: DialectChoice | undefined;
}

/**
 * The SDK, required on first use: loading it cost a quarter to half a second of every CLI
 * command and of the engine's start, whether or not a study called this provider.
 */
let sdk: typeof Sdk | undefined;
function loadSdk(): typeof Sdk {
  sdk ??= createRequire(__filename)('openai') as typeof Sdk;
  return sdk;
}

function sdkErrors(): SdkErrorClasses {
  const loaded = loadSdk();
  return {
    SdkError: loaded.OpenAIError,
    APIError: loaded.APIError,
    APIUserAbortError: loaded.APIUserAbortError,
    APIConnectionError: loaded.APIConnectionError,
    APIConnectionTimeoutError: loaded.APIConnectionTimeoutError,
  };
}

/** Arguments go back to the model as they came: parsed JSON re-encoded, raw text as is. */
function argumentsOf(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

/**
 * The `chat.completions.create` body for one neutral request. OpenAI's own newer models
 * take `max_completion_tokens` and reject `max_tokens`; compatible servers know `max_tokens`.
 * Tool results travel verbatim (the API has no error flag for them).
 */
export function toOpenAIParams(
  request: ModelRequest,
  kind: string,
): OpenAI.ChatCompletionCreateParamsNonStreaming {
  const messages: OpenAI.ChatCompletionMessageParam[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    if (message.role === 'user') messages.push({ role: 'user', content: message.content });
    else if (message.role === 'tool') {
      messages.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
    } else {
      const calls = message.toolCalls ?? [];
      messages.push({
        role: 'assistant',
        content: message.content || (calls.length > 0 ? null : ''),
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: argumentsOf(call.input) },
              })),
            }
          : {}),
      });
    }
  }
  const params: OpenAI.ChatCompletionCreateParamsNonStreaming = { model: request.model, messages };
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.reasoningEffort) params.reasoning_effort = request.reasoningEffort;
  if (request.maxTokens !== undefined) {
    if (kind === openai.kind) params.max_completion_tokens = request.maxTokens;
    else params.max_tokens = request.maxTokens;
  }
  return params;
}

/** An OpenAI or OpenAI-compatible provider. Each `complete` is exactly one HTTP call. */
export function createOpenAIProvider(options: OpenAIProviderOptions): ModelProvider {
  const client = new (loadSdk().default)({
    apiKey: options.apiKey || PLACEHOLDER_API_KEY,
    // null, not undefined: the SDK would otherwise read OPENAI_* variables behind our back.
    baseURL: options.baseUrl ?? null,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: options.timeoutMs,
    // Plain keep-alive requests, not undici's fetch (http-fetch.ts).
    fetch: keepAliveFetch,
  });
  const own = options.kind === openai.kind;
  const providerLabel = own
    ? openai.label
    : `the OpenAI-compatible server at ${options.baseUrl ?? '(no base URL)'}`;
  const apiKeyEnv = options.apiKeyEnv ?? (own ? openai.keyVariable : undefined);
  return {
    kind: options.kind,
    async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      try {
        const params = toOpenAIParams(request, options.kind);
        await options.pacer?.acquire(roughInputTokens(params), signal);
        let headers: Headers | undefined;
        let completion: unknown;
        try {
          const { data, response } = await client.chat.completions
            .create(params, { signal })
            .withResponse();
          completion = data;
          headers = response.headers;
        } catch (error) {
          headers = (error as { headers?: Headers }).headers;
          throw error;
        } finally {
          options.pacer?.release(headers);
        }
        return fromOpenAICompletion(completion, request.model, options.dialect ?? 'structured');
      } catch (error) {
        throw (
          toProviderError(error, sdkErrors(), {
            providerLabel,
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

/** List prices (standard tier, no batch discount; the 4th is cached input); newer models show as unknown. */
const prices: readonly ModelPrice[] = [
  price('gpt-4o', 2.5, 10, 1.25),
  price('gpt-4o-2024-08-06', 2.5, 10, 1.25),
  price('gpt-4o-2024-11-20', 2.5, 10, 1.25),
  price('gpt-4o-mini', 0.15, 0.6, 0.075),
  price('gpt-4o-mini-2024-07-18', 0.15, 0.6, 0.075),
  price('gpt-4.1', 2, 8, 0.5),
  price('gpt-4.1-2025-04-14', 2, 8, 0.5),
  price('gpt-4.1-mini', 0.4, 1.6, 0.1),
  price('gpt-4.1-mini-2025-04-14', 0.4, 1.6, 0.1),
  price('gpt-4.1-nano', 0.1, 0.4, 0.025),
  price('gpt-4.1-nano-2025-04-14', 0.1, 0.4, 0.025),
  price('gpt-5', 1.25, 10, 0.125),
  price('gpt-5-2025-08-07', 1.25, 10, 0.125),
  price('gpt-5-mini', 0.25, 2, 0.025),
  price('gpt-5-mini-2025-08-07', 0.25, 2, 0.025),
  price('gpt-5-nano', 0.05, 0.4, 0.005),
  price('gpt-5-nano-2025-08-07', 0.05, 0.4, 0.005),
  price('o3', 2, 8, 0.5),
  price('o3-2025-04-16', 2, 8, 0.5),
  price('o4-mini', 1.1, 4.4, 0.275),
  price('o4-mini-2025-04-16', 1.1, 4.4, 0.275),
];

/** OpenAI's descriptor (registry.ts). */
export const openaiProvider: ProviderDescriptor = {
  entry: openai,
  prices,
  create: (connection) => createOpenAIProvider({ kind: openai.kind, ...connection }),
};
