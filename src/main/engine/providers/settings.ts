/**
 * Per-model settings (what a study names as a judge) and the one place that turns them into
 * a provider. Keys come from the environment, never from the settings themselves, and a
 * missing key is reported before any call is made.
 */
import { z } from 'zod';
import { environmentVariableShape } from '../../../shared/secrets';
import { createAnthropicProvider } from './anthropic';
import { createOpenAIProvider } from './openai';
import { ProviderError, type ModelProvider } from './types';

/** Provider kinds that settings can create (replay is built from a recording instead). */
export const providerKindSchema = z.enum(['anthropic', 'openai', 'openai-compatible']);

/** One of providerKindSchema's values. */
export type ProviderKind = z.infer<typeof providerKindSchema>;

/** Default sampling temperature for every judge that accepts it (App. R: 0.7). */
export const DEFAULT_TEMPERATURE = 0.7;

/** Default per-call timeout. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** The environment variable each kind reads its key from unless `apiKeyEnv` says otherwise. */
export const DEFAULT_API_KEY_ENV: Record<ProviderKind, string | undefined> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-compatible': undefined,
};

/** Settings for one model, as stored and edited; `unknown` input goes through `parse`. */
export const modelSettingsSchema = z
  .object({
    /** Which API to speak. */
    provider: providerKindSchema,
    /** Model id as the provider spells it. */
    model: z.string().trim().min(1),
    /** Anthropic: without `/v1`; OpenAI-style: with `/v1`. Required for openai-compatible. */
    baseUrl: z.url().optional(),
    /** Name of the environment variable holding the key (never the key itself). */
    apiKeyEnv: z
      .string()
      .regex(environmentVariableShape, 'must be an environment variable name')
      .optional(),
    /** Sent when the model accepts it (App. R: dropped for a model that rejects it). */
    temperature: z.number().min(0).max(2).default(DEFAULT_TEMPERATURE),
    /** Omitted: the provider default (Anthropic: the adapter's default). */
    maxTokens: z.number().int().positive().optional(),
    timeoutMs: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
  })
  .refine((settings) => settings.provider !== 'openai-compatible' || settings.baseUrl, {
    message: 'an openai-compatible model needs a baseUrl, e.g. http://localhost:11434/v1',
    path: ['baseUrl'],
  });

/** Parsed settings, defaults filled in. */
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/** Where keys are looked up; `process.env` fits. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Resolves the key for these settings. Anthropic and OpenAI must have one: a missing key is
 * a ProviderError('auth') that names the variable to set. An OpenAI-compatible server may
 * need none (local vLLM, Ollama, LM Studio, llama.cpp): then the key is empty.
 */
export function resolveApiKey(
  settings: ModelSettings,
  env: Environment,
): { apiKey: string; apiKeyEnv: string | undefined } {
  const apiKeyEnv = settings.apiKeyEnv ?? DEFAULT_API_KEY_ENV[settings.provider];
  const apiKey = apiKeyEnv ? (env[apiKeyEnv]?.trim() ?? '') : '';
  if (!apiKey && settings.provider !== 'openai-compatible') {
    const source = settings.apiKeyEnv ? ' (named by apiKeyEnv in the model settings)' : '';
    throw new ProviderError(
      'auth',
      `Set ${apiKeyEnv}${source} to your ${settings.provider === 'anthropic' ? 'Anthropic' : 'OpenAI'} ` +
        `API key before running ${settings.model}; it is not set in the environment.`,
    );
  }
  return { apiKey, apiKeyEnv };
}

/** Builds the provider for one model's settings (parsed with modelSettingsSchema first). */
export function createProvider(settings: ModelSettings, env: Environment): ModelProvider {
  const { apiKey, apiKeyEnv } = resolveApiKey(settings, env);
  if (settings.provider === 'anthropic') {
    return createAnthropicProvider({
      apiKey,
      apiKeyEnv,
      baseUrl: settings.baseUrl,
      timeoutMs: settings.timeoutMs,
    });
  }
  return createOpenAIProvider({
    kind: settings.provider,
    apiKey,
    apiKeyEnv,
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
  });
}
