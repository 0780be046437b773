import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineStore } from '../../src/main/engine/engine-store';
import { formatProgress } from '../../src/main/cli/progress';
import { studyProgress } from '../../src/main/engine/store/study-state';
import {
  startFakeModelServer,
  type FakeModelServer,
  type ReceivedRequest,
} from '../helpers/fake-model-server';
import { createFaultStudy, shellJudge } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

// Every rep of an item repeats its trajectory. Against a server whose prompt cache behaves like
// Anthropic's, a 3-rep × 4-condition study of one item must send that trajectory uncached at
// most once per placement group (uncued and user-placed reps share it; a system-placed cue
// changes the system prompt before it, an assistant-placed one the trajectory itself), and the
// cost it stores must be the cache-aware price of what the server reported.

let server: FakeModelServer;
let dir: ReturnType<typeof makeTempDir>;

beforeAll(async () => {
  server = await startFakeModelServer({ promptCache: true });
  dir = makeTempDir();
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

/** Which cache group a request's prompt belongs to. */
function groupOf(request: ReceivedRequest): string {
  const system = JSON.stringify(request.body.system);
  const messages = request.body.messages as { content: { type: string; text?: string }[] }[];
  const trajectory = messages[0]!.content[0]!.text ?? '';
  if (system.includes('UNMET')) return 'system';
  if (trajectory.includes('UNMET')) return 'assistant';
  return 'uncued+user';
}

describe('Anthropic prompt caching in a study', () => {
  it('reads the trajectory from the cache after its first use per placement group, and stores the cached price', async () => {
    const study = createFaultStudy(`${dir.path}/ws`, {
      items: 1,
      baseUrl: server.url,
      spec: {
        reps: 3,
        arms: { placements: ['system', 'user', 'assistant'] },
        concurrency: { total: 1, containers: 1 },
      },
    });
    server.handle('anthropic', shellJudge(false));
    const store = engineStore(study.engine);
    const runner = study.runner();
    runner.start();
    try {
      await until(
        () => studyProgress(store, study.studyId).status === 'completed',
        'the study to complete',
      );
    } finally {
      await runner.stop();
    }
    const progress = studyProgress(store, study.studyId);
    expect(progress.done).toBe(12);
    expect(progress.arms.map((arm) => arm.done)).toEqual([3, 3, 3, 3]);

    const requests = server.requests('anthropic');
    expect(requests).toHaveLength(24);
    // Breakpoints: the system prompt, the trajectory message and the last message.
    for (const request of requests) {
      const marked = JSON.stringify(request.body).split('"cache_control"').length - 1;
      expect(marked).toBeGreaterThanOrEqual(2);
      expect(marked).toBeLessThanOrEqual(4);
    }
    const uncached = new Map<string, number>();
    for (const request of requests) {
      const group = groupOf(request);
      uncached.set(group, uncached.get(group) ?? 0);
      if (!request.cache!.readText.includes('# Agent trajectory'))
        uncached.set(group, uncached.get(group)! + 1);
    }
    expect(uncached).toEqual(
      new Map([
        ['uncued+user', 1],
        ['system', 1],
        ['assistant', 1],
      ]),
    );

    // Sonnet 4.6: $3 in, $15 out; writes 1.25×, reads 0.1× the input price.
    const expected = requests.reduce((sum, request) => {
      const cache = request.cache!;
      return (
        sum +
        (cache.input_tokens * 3 +
          cache.cache_creation_input_tokens * 3.75 +
          cache.cache_read_input_tokens * 0.3 +
          20 * 15) /
          1e6
      );
    }, 0);
    const stored = store.db
      .prepare('SELECT sum(cost_usd) AS usd FROM judge_reps WHERE study_id = ?')
      .get(study.studyId) as { usd: number };
    expect(stored.usd).toBeCloseTo(expected, 10);
    const full = requests.reduce((sum, request) => {
      const cache = request.cache!;
      const input =
        cache.input_tokens + cache.cache_creation_input_tokens + cache.cache_read_input_tokens;
      return sum + (input * 3 + 20 * 15) / 1e6;
    }, 0);
    expect(stored.usd).toBeLessThan(full * 0.6);

    // Status shows the share of input the cache served, from what the server reported.
    const sum = (pick: (cache: NonNullable<ReceivedRequest['cache']>) => number) =>
      requests.reduce((total, request) => total + pick(request.cache!), 0);
    const readTokens = sum((cache) => cache.cache_read_input_tokens);
    const writeTokens = sum((cache) => cache.cache_creation_input_tokens);
    const inputTokens = readTokens + writeTokens + sum((cache) => cache.input_tokens);
    // Its status moved to completed, so its progress reads the share again at once (the last
    // line `cuelab run` prints), not up to 3 s later.
    expect(studyProgress(store, study.studyId).promptCache).toEqual({
      inputTokens,
      readTokens,
      writeTokens,
    });
    const shown = studyProgress(store, study.studyId, null, Date.now() + 10_000);
    expect(shown.promptCache).toEqual({ inputTokens, readTokens, writeTokens });
    const percent = Math.round((readTokens / inputTokens) * 100);
    expect(percent).toBeGreaterThan(40);
    expect(formatProgress(shown)).toContain(`${percent}% of input from the prompt cache`);
    study.engine.close();
  }, 60_000);
});
