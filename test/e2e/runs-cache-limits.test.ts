/**
 * The Runs screen shows the prompt cache's share of the input and says when a study waits on
 * a provider's rate limit: a study in a real `cuelab serve` against the fake Anthropic server,
 * whose cache behaves like the real one and whose replies carry a small requests limit.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema } from '../../src/shared/study-spec';
import { startFakeModelServer, type FakeHandler } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';
import { launchBrowser } from './helpers/browser';
import { startEngine } from './helpers/engine';
import { openStudyDetail, saveScreenshot } from './helpers/lab-page';

const model = 'claude-3-7-sonnet-20250219';

function cachedStudy(workspace: string, modelsUrl: string): string {
  const setup = createEngine({ path: workspace, source: 'flag' });
  try {
    saveSuite(
      engineStore(setup),
      loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
      'imported',
    );
    const spec = studySpecSchema.parse({
      name: 'cached and paced study with a long name for the Runs screen',
      suite: 'fixture-suite',
      judges: [{ id: 'sonnet', provider: 'anthropic', model, baseUrl: modelsUrl }],
      reps: 3,
      concurrency: { total: 4, containers: 4 },
      arms: { cues: [{ kind: 'preset', preset: 'strong' }], placements: ['system', 'user'] },
    });
    return createStudy(
      engineStore(setup),
      spec,
      listSuiteItems(engineStore(setup), 'fixture-suite'),
    );
  } finally {
    setup.close();
  }
}

/** Six requests per 4-second window, told in Anthropic's headers (never exceeded here). */
function limited(judge: FakeHandler): FakeHandler {
  let windowStart = 0;
  let count = 0;
  return async (request) => {
    const now = Date.now();
    if (now >= windowStart + 4000) {
      windowStart = now;
      count = 0;
    }
    count += 1;
    const answer = await judge(request);
    if (answer.type !== 'message') return answer;
    return {
      ...answer,
      headers: {
        'anthropic-ratelimit-requests-limit': '6',
        'anthropic-ratelimit-requests-remaining': String(Math.max(0, 6 - count)),
        'anthropic-ratelimit-requests-reset': new Date(windowStart + 4000).toISOString(),
      },
    };
  };
}

describe('Runs: prompt cache and provider limits', () => {
  it('shows the cache hit rate and the wait on a provider limit', async () => {
    const models = await startFakeModelServer({ latencyMs: 100, promptCache: true });
    models.handle('anthropic', limited(deferentialJudge()));
    const dir = makeTempDir();
    const workspace = join(dir.path, 'ws');
    const studyId = cachedStudy(workspace, models.url);
    const engine = await startEngine({
      workspace,
      env: { ANTHROPIC_API_KEY: 'sk-test-cache', CUELAB_TRUSTED_ENDPOINTS: models.url },
    });
    const browser = await launchBrowser({ width: 1024, height: 700 });
    try {
      const page = await browser.context.newPage();
      const detail = await openStudyDetail(page, engine.url, studyId);
      const wait = detail.getByTestId('provider-wait');
      await wait.waitFor({ state: 'visible', timeout: 30_000 });
      expect(await wait.textContent()).toMatch(
        /^Waiting on anthropic's requests limit \(6 per window\) until .+: CueLab paces/,
      );
      const hits = detail.getByTestId('cache-hit-rate');
      await hits.waitFor({ state: 'visible', timeout: 30_000 });
      expect(await hits.textContent()).toMatch(/^\s*\d+% of input from the prompt cache$/);
      await saveScreenshot(page, 'runs-cache-limits-1024');
      await page.setViewportSize({ width: 1440, height: 900 });
      await saveScreenshot(page, 'runs-cache-limits-1440');
      await detail
        .locator('[data-status="completed"]')
        .or(page.locator('[data-testid="study-detail"][data-status="completed"]'))
        .first()
        .waitFor({ timeout: 60_000 });
      const percent = Number(/(\d+)%/.exec((await hits.textContent()) ?? '')?.[1]);
      expect(percent).toBeGreaterThan(30);
      expect(models.requests('anthropic').every((request) => request.cache)).toBe(true);
    } finally {
      await browser.close();
      await engine.stop();
      await models.close();
      dir.remove();
    }
  }, 120_000);
});
