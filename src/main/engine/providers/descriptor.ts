/**
 * What the engine knows of one provider beyond its catalogue entry: its list prices and how
 * to build it. One descriptor per provider file, listed in registry.ts.
 */
import type {
  ModelProviderKind,
  ProviderCatalogueEntry,
} from '../../../shared/catalogue/providers';
import type { DialectChoice } from './dialects';
import type { RateLimitPacer } from './rate-limits';
import type { ModelProvider } from './types';

/** A model's list price in US dollars per million tokens; `*` in `model` matches any run. */
export interface ModelPrice {
  model: string;
  inputPerMillion: number;
  outputPerMillion: number;
  /** Input read from the prompt cache; omitted: charged as `inputPerMillion`. */
  cacheReadPerMillion?: number;
  /** Input written to the prompt cache; omitted: charged as `inputPerMillion`. */
  cacheWritePerMillion?: number;
}

/** One price row, as the descriptors list them; `cachedInput` prices cache reads. */
export function price(
  model: string,
  inputPerMillion: number,
  outputPerMillion: number,
  cachedInput?: number,
): ModelPrice {
  return {
    model,
    inputPerMillion,
    outputPerMillion,
    ...(cachedInput === undefined ? {} : { cacheReadPerMillion: cachedInput }),
  };
}

/** How to reach a provider, once its key is resolved (settings.ts). */
interface ProviderConnection {
  /** Empty when the provider takes none (a local compatible server). */
  apiKey: string;
  /** Named in auth errors: where the key came from. */
  apiKeyEnv: string | undefined;
  baseUrl: string | undefined;
  /** Per-call timeout in milliseconds. */
  timeoutMs: number;
  /** Tool-call dialect of an OpenAI-style server (dialects/); others ignore it. */
  dialect?: DialectChoice | undefined;
  /** Paces calls under the provider's rate limits (rate-limits.ts), shared per key. */
  pacer?: RateLimitPacer | undefined;
}

/** One provider: kind, label, key variable, hosts and options (its entry), prices, factory. */
export interface ProviderDescriptor {
  readonly entry: ProviderCatalogueEntry<ModelProviderKind>;
  /** Default price rows; the most specific matching row wins (pricing.ts). */
  readonly prices: readonly ModelPrice[];
  /** The provider for one connection; each `complete` is exactly one HTTP call. */
  create(connection: ProviderConnection): ModelProvider;
}
