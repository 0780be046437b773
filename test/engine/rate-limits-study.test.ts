import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProgress } from '../../src/main/cli/progress';
import { engineStore } from '../../src/main/engine/engine-store';
import {
  createRateLimitPacer,
  readRateLimitHeaders,
} from '../../src/main/engine/providers/rate-limits';
import { studyProgress } from '../../src/main/engine/runner/progress';
import { studyProgress as storedProgress } from '../../src/main/engine/store/study-state';
import {
  reply,
  startFakeModelServer,
  type FakeHandler,
  type FakeModelServer,
} from '../helpers/fake-model-server';
import { createFaultStudy } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

// A provider's rate limit, learnt from its headers, paces the study before a 429 comes: at
// concurrency 32 against a server that allows 40 requests per 3 s window and answers 429 past
// that, no request is refused once the first reply has told the limit.

const limit = 40;
const windowMs = 3000;
let server: FakeModelServer;
let dir: ReturnType<typeof makeTempDir>;

beforeAll(async () => {
  server = await startFakeModelServer({ latencyMs: 60 });
  dir = makeTempDir();
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

/** The judge behind a fixed-window limit with OpenAI's headers. */
function limited(judge: FakeHandler) {
  let windowStart = 0;
  let count = 0;
  const refused: number[] = [];
  const handler: FakeHandler = async (request) => {
    const now = Date.now();
    if (now >= windowStart + windowMs) {
      windowStart = now;
      count = 0;
    }
    count += 1;
    const resetMs = windowStart + windowMs - now;
    const headers = {
      'x-ratelimit-limit-requests': String(limit),
      'x-ratelimit-remaining-requests': String(Math.max(0, limit - count)),
      'x-ratelimit-reset-requests': `${resetMs}ms`,
    };
    if (count > limit) {
      refused.push(now);
      return reply.error(
        429,
        { message: 'Rate limit reached for requests' },
        {
          ...headers,
          'retry-after': String(Math.ceil(resetMs / 1000)),
        },
      );
    }
    const answer = await judge(request);
    return answer.type === 'message' ? { ...answer, headers } : answer;
  };
  return { handler, refused };
}

const listThenPass: FakeHandler = (request) => {
  const messages = request.body.messages as { role: string }[];
  if (!messages.some((message) => message.role === 'tool'))
    return reply.toolCall('list_dir', { path: '.' });
  return reply.toolCall('submit_verdict', { verdict: 'pass', confidence: 0.9, rationale: 'ok' });
};

describe('rate limits learnt from headers', () => {
  it('reads both header families, durations and RFC 3339 times', () => {
    const now = Date.parse('2026-12-03T10:00:00Z');
    const anthropic = readRateLimitHeaders(
      new Headers({
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '7',
        'anthropic-ratelimit-requests-reset': '2026-12-03T10:00:12Z',
        'anthropic-ratelimit-input-tokens-remaining': '1000',
        'anthropic-ratelimit-input-tokens-reset': '2026-12-03T10:00:30Z',
      }),
      now,
    );
    expect(anthropic.get('requests')).toMatchObject({
      limit: 50,
      remaining: 7,
      resetAtMs: now + 12_000,
    });
    expect(anthropic.get('input-tokens')).toMatchObject({ limit: null, remaining: 1000 });
    const openai = readRateLimitHeaders(
      new Headers({
        'x-ratelimit-limit-tokens': '30000',
        'x-ratelimit-remaining-tokens': '29000',
        'x-ratelimit-reset-tokens': '6m0.5s',
      }),
      now,
    );
    expect(openai.get('tokens')).toMatchObject({ limit: 30000, resetAtMs: now + 360_500 });
  });

  it('holds a call that the tokens left cannot cover until the window resets', async () => {
    let clock = 0;
    const slept: number[] = [];
    const pacer = createRateLimitPacer('anthropic', {
      now: () => clock,
      sleep: (ms) => {
        slept.push(ms);
        clock += ms;
        return Promise.resolve();
      },
    });
    await pacer.acquire(100);
    pacer.release(
      new Headers({
        'anthropic-ratelimit-input-tokens-limit': '1000',
        'anthropic-ratelimit-input-tokens-remaining': '300',
        'anthropic-ratelimit-input-tokens-reset': new Date(2000).toISOString(),
      }),
    );
    await pacer.acquire(200); // fits the 300 left
    await pacer.acquire(200); // 400 > 300: waits for the reset at 2 s
    expect(clock).toBeGreaterThanOrEqual(2000);
    expect(slept.length).toBeGreaterThan(0);
  });

  it('a study at concurrency 32 gets no 429 once the limit is known, and status says it waits', async () => {
    const { handler, refused } = limited(listThenPass);
    server.handle('openai', handler);
    const items = 48;
    const study = createFaultStudy(`${dir.path}/ws`, {
      items,
      baseUrl: server.openaiUrl,
      env: { OPENAI_API_KEY: 'sk-test-rate' },
      spec: {
        judges: [{ id: 'gpt', provider: 'openai', model: 'gpt-4.1', baseUrl: server.openaiUrl }],
        arms: { cues: [] },
        concurrency: { total: 32, containers: 32 },
      },
    });
    const store = engineStore(study.engine);
    const runner = study.runner({ concurrency: 32 });
    const waits: string[] = [];
    runner.start();
    try {
      await until(
        () => {
          const progress = studyProgress(store, study.studyId);
          if (progress.providerWait) waits.push(formatProgress(progress));
          return progress.status === 'completed';
        },
        'the study to complete',
        60_000,
      );
    } finally {
      await runner.stop();
    }
    const progress = storedProgress(store, study.studyId);
    expect(progress.done).toBe(items);
    expect(progress.failed).toBe(0);
    expect(server.callCount('openai')).toBe(2 * items);
    expect(refused).toEqual([]);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toMatch(/waiting \d+s on openai's requests limit \(40 per window\)/);
    study.engine.close();
  }, 90_000);
});
