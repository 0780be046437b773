/**
 * The one place that retries model calls: exponential backoff with full jitter for transient
 * failures, the provider's `retry-after` honoured, everything else reported at once. Also
 * where a model's rejection of `temperature` is learnt (App. R, see temperature-policy.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { processTemperaturePolicy, type TemperaturePolicy } from './temperature-policy';
import {
  ProviderError,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type ProviderErrorKind,
} from './types';

/** One transient failure that was retried. */
export interface RetryInfo {
  /** Which transient failure this was (1-based); drives the backoff exponent. */
  attempt: number;
  kind: ProviderErrorKind;
  status: number | undefined;
  /** What we waited before the next attempt. */
  delayMs: number;
  /** What the provider asked for, when it said. */
  retryAfterMs: number | undefined;
  message: string;
}

/** Backoff shape; all in milliseconds. */
export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  /** A number in [0, 1); injectable so tests are deterministic. */
  random: () => number;
}

/** How callWithRetry behaves. */
export interface RetryOptions {
  signal?: AbortSignal;
  /** Total calls allowed for transient failures, the first included. Default 6. */
  maxAttempts?: number;
  /** Default 1000. */
  baseDelayMs?: number;
  /** Cap on the backoff (not on a provider's own retry-after). Default 60000. */
  maxDelayMs?: number;
  /** Waits; rejects when the signal aborts. Default: a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Default Math.random. */
  random?: () => number;
  /** Told before each wait. */
  onRetry?: (info: RetryInfo) => void;
  /** Where temperature rejections are remembered. Default: processTemperaturePolicy. */
  temperaturePolicy?: TemperaturePolicy;
}

/** The answer and how it was obtained. */
export interface RetryResult {
  response: ModelResponse;
  /** Calls made, including failed ones and a temperature retry. */
  attempts: number;
  /** Transient failures that were retried, in order. */
  retries: RetryInfo[];
  /** True when the request went out without the temperature it asked for (App. R). */
  temperatureDropped: boolean;
}

/**
 * Full-jitter backoff for the wait after failed attempt `attempt` (1-based):
 * random × min(maxDelay, base × 2^(attempt−1)), never less than the provider's retry-after.
 */
export function backoffDelayMs(
  attempt: number,
  options: BackoffOptions,
  retryAfterMs?: number,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.floor(options.random() * ceiling);
  return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.ceil(retryAfterMs));
}

/** A seeded generator in [0, 1) (mulberry32) for reproducible jitter in tests and replays. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The default wait: a timer that stops early when the signal aborts. */
export async function sleepWithSignal(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal });
}

function abortedError(provider: ModelProvider, cause?: unknown): ProviderError {
  return new ProviderError('aborted', `The call to ${provider.kind} was cancelled.`, { cause });
}

function withoutTemperature(request: ModelRequest): ModelRequest {
  const copy = { ...request };
  delete copy.temperature;
  return copy;
}

/**
 * Calls `provider.complete` until it answers, a non-retryable error comes, or the attempts
 * run out (the last error is rethrown). A `temperature_rejected` answer is retried once at
 * once without temperature and remembered for the model (App. R); it does not count as a
 * transient retry.
 */
export async function callWithRetry(
  provider: ModelProvider,
  request: ModelRequest,
  options: RetryOptions = {},
): Promise<RetryResult> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 6);
  const backoff: BackoffOptions = {
    baseDelayMs: options.baseDelayMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 60_000,
    random: options.random ?? Math.random,
  };
  const sleep = options.sleep ?? sleepWithSignal;
  const policy = options.temperaturePolicy ?? processTemperaturePolicy;
  const { signal } = options;

  let current = request;
  let temperatureDropped = false;
  if (current.temperature !== undefined && !policy.accepts(provider.kind, current.model)) {
    current = withoutTemperature(current);
    temperatureDropped = true;
  }
  const retries: RetryInfo[] = [];
  let attempts = 0;
  for (;;) {
    if (signal?.aborted) throw abortedError(provider, signal.reason);
    attempts += 1;
    try {
      const response = await provider.complete(current, signal);
      return { response, attempts, retries, temperatureDropped };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.kind === 'temperature_rejected' && current.temperature !== undefined) {
        policy.markRejected(provider.kind, current.model);
        current = withoutTemperature(current);
        temperatureDropped = true;
        continue;
      }
      const failedAttempt = retries.length + 1;
      if (!error.retryable || failedAttempt >= maxAttempts) throw error;
      const info: RetryInfo = {
        attempt: failedAttempt,
        kind: error.kind,
        status: error.status,
        delayMs: backoffDelayMs(failedAttempt, backoff, error.retryAfterMs),
        retryAfterMs: error.retryAfterMs,
        message: error.message,
      };
      retries.push(info);
      options.onRetry?.(info);
      try {
        await sleep(info.delayMs, signal);
      } catch (sleepError) {
        if (signal?.aborted) throw abortedError(provider, sleepError);
        throw sleepError;
      }
    }
  }
}
