/**
 * Per-model settings (what a study names as a judge) and the one place that turns them into
 * a provider. Keys come from the environment, never from the settings themselves, and a
 * missing key is reported before any call is made.
 */
import { z } from 'zod';
import {
  modelProviderKindSchema,
  providerEntry,
  takesOption,
  toolDialectSchema,
  type ModelProviderKind,
} from '../../../shared/catalogue/providers';
import { environmentVariableShape } from '../../../shared/secrets';
import { pacerFor } from './rate-limits';
import { providerDescriptor } from './registry';
import { threadedProvider } from './threaded';
import { ProviderError, type ModelProvider } from './types';

/** Default sampling temperature for every judge that accepts it (App. R: 0.7). */
export const DEFAULT_TEMPERATURE = 0.7;

/** Default per-call timeout. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** The environment variable each kind reads its key from unless `apiKeyEnv` says otherwise. */
export const DEFAULT_API_KEY_ENV: Readonly<Record<ModelProviderKind, string | undefined>> =
  Object.fromEntries(
    modelProviderKindSchema.options.map((kind) => [
      kind,
      providerEntry(kind).keyVariable ?? undefined,
    ]),
  ) as Record<ModelProviderKind, string | undefined>;

/** Settings for one model, as stored and edited; `unknown` input goes through `parse`. */
export const modelSettingsSchema = z
  .object({
    /** Which API to speak. */
    provider: modelProviderKindSchema,
    /** Model id as the provider spells it. */
    model: z.string().trim().min(1),
    /** Anthropic: without `/v1`; OpenAI-style: with `/v1`. Required where there is no public API. */
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
    /** How an OpenAI-compatible server returns tool calls; omitted: `auto`. */
    dialect: toolDialectSchema.optional(),
  })
  .superRefine((settings, context) => {
    const entry = providerEntry(settings.provider);
    if (settings.dialect !== undefined && !takesOption(settings.provider, 'dialect'))
      context.addIssue({
        code: 'custom',
        message: 'dialect is a setting of openai-compatible servers',
        path: ['dialect'],
      });
    if (entry.baseUrlRequired && !settings.baseUrl)
      context.addIssue({
        code: 'custom',
        message: `an ${entry.kind} model needs a baseUrl${entry.baseUrlExample ? `, e.g. ${entry.baseUrlExample}` : ''}`,
        path: ['baseUrl'],
      });
  });

/** Parsed settings, defaults filled in. */
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/** Where keys are looked up; `process.env` fits. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Resolves the key for these settings. A provider that requires a key must have one: a missing
 * key is a ProviderError('auth') that names the variable to set. A provider that does not (a
 * local vLLM, Ollama, LM Studio or llama.cpp server) may run with none: then the key is empty.
 */
export function resolveApiKey(
  settings: ModelSettings,
  env: Environment,
): { apiKey: string; apiKeyEnv: string | undefined } {
  const entry = providerEntry(settings.provider);
  const apiKeyEnv = settings.apiKeyEnv ?? entry.keyVariable ?? undefined;
  const apiKey = apiKeyEnv ? (env[apiKeyEnv]?.trim() ?? '') : '';
  if (!apiKey && entry.keyRequired) {
    const source = settings.apiKeyEnv ? ' (named by apiKeyEnv in the model settings)' : '';
    throw new ProviderError(
      'auth',
      `Set ${apiKeyEnv}${source} to your ${entry.label} ` +
        `API key before running ${settings.model}; it is not set in the environment.`,
    );
  }
  return { apiKey, apiKeyEnv };
}

/** A resolved key and the variable it came from (resolveApiKey). */
export interface ResolvedKey {
  apiKey: string;
  apiKeyEnv: string | undefined;
}

/**
 * Builds the provider for one model's settings (parsed with modelSettingsSchema first). Its
 * calls run on the provider thread (threaded.ts): the SDK's request building, the HTTP call and
 * the reply's parsing leave the engine's thread. `CUELAB_PROVIDER_THREAD=0` in the engine's own
 * environment keeps them on this thread, as does a build without the thread's program.
 */
export function createProvider(settings: ModelSettings, env: Environment): ModelProvider {
  // The key is looked up here, so a missing one is reported before any thread starts.
  const key = resolveApiKey(settings, env);
  if (process.env.CUELAB_PROVIDER_THREAD === '0') return buildProvider(settings, key);
  return threadedProvider(settings, key, () => buildProvider(settings, key));
}

/** The provider itself, calling on the thread that calls it (the provider thread's builder). */
export function buildProvider(settings: ModelSettings, key: ResolvedKey): ModelProvider {
  return providerDescriptor(settings.provider).create({
    apiKey: key.apiKey,
    apiKeyEnv: key.apiKeyEnv,
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    dialect: settings.dialect,
    pacer: pacerFor(settings.provider, settings.baseUrl, key.apiKey),
  });
}
