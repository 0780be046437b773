/**
 * Pacing under a provider's rate limits, learnt from its replies' headers: Anthropic's
 * `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`
 * (reset: an RFC 3339 time) and OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`
 * (reset: a duration such as `1s`, `6m0s` or `20ms`). One pacer per provider and key: before a
 * call it waits while what the last reply left, less the calls still in flight, cannot cover
 * it, until that window's reset. A 429 still backs off with retry-after (retry.ts); its headers
 * teach the pacer too.
 */
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

/** What a header source offers (fetch `Headers`, or the SDK error's headers). */
interface HeaderSource {
  get(name: string): string | null | undefined;
}

type Dimension = 'requests' | 'tokens' | 'input-tokens' | 'output-tokens';
const dimensions: readonly Dimension[] = ['requests', 'tokens', 'input-tokens', 'output-tokens'];

/** One limit as the last reply told it, and what was sent since. */
interface Window {
  limit: number | null;
  remaining: number;
  /** When it refills; Infinity once refilled, until a reply says anew. */
  resetAtMs: number;
  sentCalls: number;
  sentTokens: number;
}

/** `1s`, `6m0s`, `1h2m3.5s`, `20ms` → milliseconds; undefined when it is none of these. */
export function parseResetDuration(text: string): number | undefined {
  const value = text.trim();
  if (value.length > 40) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const parts = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/.exec(
    value,
  );
  if (!parts || value === '') return undefined;
  const [, hours, minutes, seconds, millis] = parts;
  return (
    Number(hours ?? 0) * 3_600_000 +
    Number(minutes ?? 0) * 60_000 +
    Number(seconds ?? 0) * 1000 +
    Number(millis ?? 0)
  );
}

function resetAt(text: string, now: number): number | undefined {
  const duration = parseResetDuration(text);
  if (duration !== undefined) return now + duration;
  const time = Date.parse(text);
  return Number.isFinite(time) ? time : undefined;
}

function numberOf(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The windows one reply's headers describe. */
export function readRateLimitHeaders(
  headers: HeaderSource,
  now = Date.now(),
): Map<Dimension, Window> {
  const windows = new Map<Dimension, Window>();
  for (const dimension of dimensions) {
    const anthropic = `anthropic-ratelimit-${dimension}`;
    const remaining =
      numberOf(headers.get(`${anthropic}-remaining`)) ??
      numberOf(headers.get(`x-ratelimit-remaining-${dimension}`));
    if (remaining === undefined) continue;
    const limit =
      numberOf(headers.get(`${anthropic}-limit`)) ??
      numberOf(headers.get(`x-ratelimit-limit-${dimension}`)) ??
      null;
    const reset =
      headers.get(`${anthropic}-reset`) ?? headers.get(`x-ratelimit-reset-${dimension}`);
    // No reset said: assume the usual one-minute window.
    const at = (reset ? resetAt(reset, now) : undefined) ?? now + 60_000;
    windows.set(dimension, { limit, remaining, resetAtMs: at, sentCalls: 0, sentTokens: 0 });
  }
  return windows;
}

/** What a pacer is waiting on, for status. */
export interface ProviderWait {
  provider: string;
  untilMs: number;
  reason: string;
}

/** One provider + key's pacer. */
export interface RateLimitPacer {
  /** Waits until a call of about `inputTokens` fits the known limits; then counts it in flight. */
  acquire(inputTokens: number, signal?: AbortSignal): Promise<void>;
  /** A reply (or an error reply) arrived with these headers; the call is no longer in flight. */
  release(headers: HeaderSource | undefined): void;
  /** What it waits on now, or null. */
  waiting(): ProviderWait | null;
}

/** Builds a pacer; `now` and `sleep` are injectable for tests. */
export function createRateLimitPacer(
  label: string,
  options: { now?: () => number; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> } = {},
): RateLimitPacer {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  const windows = new Map<Dimension, Window>();
  let inFlight = 0;
  let inFlightTokens = 0;
  const reserved: number[] = [];
  let wait: ProviderWait | null = null;
  const setWait = (next: ProviderWait | null) => {
    const changed = next?.untilMs !== wait?.untilMs || next?.reason !== wait?.reason;
    wait = next;
    if (changed) waitListener?.();
  };

  /** Until when a call of `tokens` must wait, and why; null when it may go. */
  function blockedUntil(tokens: number): { untilMs: number; reason: string } | null {
    const at = now();
    for (const [dimension, window] of windows) {
      if (window.resetAtMs <= at) {
        // Refilled. Until a reply says where the new window ends, count what goes out against
        // the whole limit, so a burst after the reset cannot overrun it either.
        if (window.limit === null) {
          windows.delete(dimension);
          continue;
        }
        Object.assign(window, {
          remaining: window.limit,
          resetAtMs: Number.POSITIVE_INFINITY,
          sentCalls: inFlight,
          sentTokens: inFlightTokens,
        });
      }
      if (dimension === 'output-tokens') continue; // unknown before the reply
      const fits =
        dimension === 'requests'
          ? window.sentCalls + 1 <= window.remaining
          : window.sentTokens + tokens <= window.remaining ||
            (window.limit !== null && tokens > window.limit); // can never fit: the provider says
      if (fits) continue;
      const limit = window.limit === null ? '' : ` (${window.limit} per window)`;
      const reason = `${label}'s ${dimension} limit${limit}`;
      if (Number.isFinite(window.resetAtMs)) return { untilMs: window.resetAtMs, reason };
      // Refilled and spent with nothing in flight: no reply will come to say more; go.
      if (inFlight === 0) continue;
      return { untilMs: at + 100, reason };
    }
    return null;
  }

  return {
    async acquire(inputTokens, signal) {
      for (;;) {
        signal?.throwIfAborted();
        const blocked = blockedUntil(inputTokens);
        if (!blocked) break;
        setWait({ provider: label, ...blocked });
        // Re-checked after each wait: another call's reply may have moved the window.
        await sleep(Math.max(10, Math.min(blocked.untilMs - now(), 5000)), signal);
      }
      setWait(null);
      inFlight += 1;
      inFlightTokens += inputTokens;
      reserved.push(inputTokens);
      for (const window of windows.values()) {
        window.sentCalls += 1;
        window.sentTokens += inputTokens;
      }
    },
    release(headers) {
      inFlight = Math.max(0, inFlight - 1);
      inFlightTokens = Math.max(0, inFlightTokens - (reserved.shift() ?? 0));
      if (!headers) return;
      for (const [dimension, window] of readRateLimitHeaders(headers, now())) {
        // The reply's remaining already counts the calls the provider had received; those
        // still in flight may not be in it yet.
        windows.set(dimension, { ...window, sentCalls: inFlight, sentTokens: inFlightTokens });
      }
    },
    waiting: () => (wait && wait.untilMs > now() ? wait : null),
  };
}

const pacers = new Map<string, RateLimitPacer>();

/** Told when any pacer starts, changes or ends a wait (the provider thread mirrors its waits). */
let waitListener: (() => void) | undefined;

/** Calls `listener` whenever a pacer's wait changes. */
export function onProviderWaitChange(listener: () => void): void {
  waitListener = listener;
}

/** The waits of the pacers in the provider thread (workers/provider-thread.ts), mirrored here. */
let threadWaits: readonly ProviderWait[] = [];

/** Replaces the provider thread's waits as it last told them. */
export function setThreadWaits(waits: readonly ProviderWait[]): void {
  threadWaits = waits;
}

/** The pacer of one provider kind, endpoint and key (the key only as a hash). */
export function pacerFor(
  kind: string,
  baseUrl: string | undefined,
  apiKey: string,
): RateLimitPacer {
  const keyHash = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
  const id = `${kind}\u0000${baseUrl ?? ''}\u0000${keyHash}`;
  let pacer = pacers.get(id);
  if (!pacer) {
    pacer = createRateLimitPacer(kind === 'openai-compatible' && baseUrl ? baseUrl : kind);
    pacers.set(id, pacer);
  }
  return pacer;
}

/** Every provider limit some call is waiting on now. */
export function providerWaits(): ProviderWait[] {
  const now = Date.now();
  return [
    ...[...pacers.values()].flatMap((pacer) => pacer.waiting() ?? []),
    ...threadWaits.filter((wait) => wait.untilMs > now),
  ];
}

/** A rough count of a request's input tokens: its JSON length / 4. */
export function roughInputTokens(body: unknown): number {
  return Math.ceil(JSON.stringify(body).length / 4);
}
