import { describe, expect, it, vi } from 'vitest';
import {
  backoffDelayMs,
  callWithRetry,
  seededRandom,
  type RetryOptions,
} from '../../src/main/engine/providers/retry';
import { createTemperaturePolicy } from '../../src/main/engine/providers/temperature-policy';
import {
  ProviderError,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
} from '../../src/main/engine/providers/types';

const request: ModelRequest = {
  model: 'judge-model',
  system: 'Judge.',
  messages: [{ role: 'user', content: 'Go.' }],
  tools: [],
  temperature: 0.7,
};

const answer: ModelResponse = {
  text: 'ok',
  toolCalls: [],
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1 },
  model: 'judge-model',
};

/** A provider that plays back outcomes in order and records what it was sent. */
function scriptedProvider(outcomes: (ProviderError | Error | ModelResponse)[]) {
  const sent: ModelRequest[] = [];
  const provider: ModelProvider = {
    kind: 'stub',
    complete(incoming) {
      sent.push(incoming);
      const next = outcomes.shift() ?? answer;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  };
  return { provider, sent };
}

function quick(extra: RetryOptions = {}): RetryOptions & { waited: number[] } {
  const waited: number[] = [];
  return {
    waited,
    sleep: (ms) => {
      waited.push(ms);
      return Promise.resolve();
    },
    random: () => 0.999,
    temperaturePolicy: createTemperaturePolicy(),
    ...extra,
  };
}

const rateLimited = (retryAfterMs?: number) =>
  new ProviderError('rate_limited', 'slow down', { status: 429, retryAfterMs });

describe('backoffDelayMs', () => {
  const shape = { baseDelayMs: 1000, maxDelayMs: 60_000 };

  it('draws from [0, base × 2^(attempt−1)) with full jitter', () => {
    expect(backoffDelayMs(1, { ...shape, random: () => 0 })).toBe(0);
    expect(backoffDelayMs(1, { ...shape, random: () => 0.5 })).toBe(500);
    expect(backoffDelayMs(3, { ...shape, random: () => 0.5 })).toBe(2000);
    expect(backoffDelayMs(4, { ...shape, random: () => 0.999 })).toBe(7992);
  });

  it('caps the ceiling at maxDelayMs', () => {
    expect(backoffDelayMs(20, { ...shape, random: () => 0.5 })).toBe(30_000);
  });

  it('never waits less than the provider asked, even beyond the cap', () => {
    expect(backoffDelayMs(1, { ...shape, random: () => 0.5 }, 2500)).toBe(2500);
    expect(backoffDelayMs(3, { ...shape, random: () => 0.9 }, 100)).toBe(3600);
    expect(backoffDelayMs(1, { ...shape, random: () => 0.5 }, 90_000)).toBe(90_000);
  });

  it('is reproducible with a seeded generator', () => {
    const draws = (seed: number) => {
      const random = seededRandom(seed);
      return [1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, { ...shape, random }));
    };
    expect(draws(17)).toEqual(draws(17));
    expect(draws(17)).not.toEqual(draws(18));
    for (const [index, delay] of draws(17).entries()) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(1000 * 2 ** index);
    }
  });
});

describe('callWithRetry', () => {
  it('retries retryable kinds with growing waits and reports each retry', async () => {
    const { provider } = scriptedProvider([
      rateLimited(),
      new ProviderError('server_error', 'boom', { status: 500 }),
      new ProviderError('timeout', 'slow'),
    ]);
    const onRetry = vi.fn();
    const options = quick({ onRetry });
    const result = await callWithRetry(provider, request, options);
    expect(result.attempts).toBe(4);
    expect(result.retries.map((info) => [info.attempt, info.kind])).toEqual([
      [1, 'rate_limited'],
      [2, 'server_error'],
      [3, 'timeout'],
    ]);
    expect(options.waited).toEqual([999, 1998, 3996]);
    expect(onRetry).toHaveBeenCalledTimes(3);
    expect(result.temperatureDropped).toBe(false);
  });

  it('rethrows a non-retryable error at once', async () => {
    const auth = new ProviderError('auth', 'Set ANTHROPIC_API_KEY', { status: 401 });
    const { provider, sent } = scriptedProvider([auth]);
    await expect(callWithRetry(provider, request, quick())).rejects.toBe(auth);
    expect(sent).toHaveLength(1);
  });

  it('rethrows errors that are not ProviderErrors untouched', async () => {
    const bug = new TypeError('bug in an adapter');
    const { provider } = scriptedProvider([bug]);
    await expect(callWithRetry(provider, request, quick())).rejects.toBe(bug);
  });

  it('gives up after maxAttempts calls with the last error', async () => {
    const last = rateLimited(5);
    const { provider, sent } = scriptedProvider([rateLimited(), rateLimited(), last]);
    await expect(callWithRetry(provider, request, quick({ maxAttempts: 3 }))).rejects.toBe(last);
    expect(sent).toHaveLength(3);
  });

  it('stops with aborted when the signal fires during a wait', async () => {
    const controller = new AbortController();
    const { provider, sent } = scriptedProvider([rateLimited(60_000)]);
    const pending = callWithRetry(provider, request, {
      signal: controller.signal,
      temperaturePolicy: createTemperaturePolicy(),
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    expect(sent).toHaveLength(1);
  });

  it('drops temperature once on rejection and remembers it per provider kind and model', async () => {
    const persisted = vi.fn();
    const temperaturePolicy = createTemperaturePolicy({ persist: persisted });
    const rejection = new ProviderError('temperature_rejected', 'temperature is deprecated');
    const { provider, sent } = scriptedProvider([rejection]);

    const first = await callWithRetry(provider, request, quick({ temperaturePolicy }));
    expect(first).toMatchObject({ attempts: 2, retries: [], temperatureDropped: true });
    expect(sent.map((body) => body.temperature)).toEqual([0.7, undefined]);
    expect(persisted).toHaveBeenCalledWith([{ providerKind: 'stub', model: 'judge-model' }]);

    const second = await callWithRetry(provider, request, quick({ temperaturePolicy }));
    expect(second).toMatchObject({ attempts: 1, temperatureDropped: true });
    expect(sent[2]).not.toHaveProperty('temperature');
    expect(request.temperature).toBe(0.7); // the caller's request is never mutated

    const other = await callWithRetry(
      provider,
      { ...request, model: 'other' },
      quick({ temperaturePolicy }),
    );
    expect(other.temperatureDropped).toBe(false);
    expect(sent[3]?.temperature).toBe(0.7);
    expect(persisted).toHaveBeenCalledTimes(1);
  });

  it('does not loop when a request without temperature is still rejected', async () => {
    const rejection = new ProviderError('temperature_rejected', 'temperature unsupported');
    const { provider, sent } = scriptedProvider([rejection, rejection]);
    await expect(
      callWithRetry(provider, request, quick({ temperaturePolicy: createTemperaturePolicy() })),
    ).rejects.toBe(rejection);
    expect(sent).toHaveLength(2);
  });

  it('starts from remembered rejections (e.g. loaded from the workspace)', async () => {
    const temperaturePolicy = createTemperaturePolicy({
      initial: [{ providerKind: 'stub', model: 'judge-model' }],
    });
    const { provider, sent } = scriptedProvider([]);
    const result = await callWithRetry(provider, request, quick({ temperaturePolicy }));
    expect(result.temperatureDropped).toBe(true);
    expect(sent[0]).not.toHaveProperty('temperature');
  });
});
