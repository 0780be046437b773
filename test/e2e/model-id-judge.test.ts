/**
 * A judge named by its model id (`anthropic/claude-3-7-sonnet-20250219-thinking-16k`) runs a
 * study in a real `cuelab serve` against the fake Anthropic server through the real SDK, and
 * every figure of Results and the report CSV show it under that name. Screenshots at
 * 1024x700 and 1440x900 land in test-results/.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { createLabClient } from '../../src/shared/lab-client';
import { studySpecSchema } from '../../src/shared/study-spec';
import { startFakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';
import { launchBrowser } from './helpers/browser';
import { startEngine } from './helpers/engine';
import { saveScreenshot, waitConnected } from './helpers/lab-page';

const judgeName = 'anthropic/claude-3-7-sonnet-20250219-thinking-16k';

function namedStudy(workspace: string, modelsUrl: string): string {
  const setup = createEngine({ path: workspace, source: 'flag' });
  try {
    const store = engineStore(setup);
    saveSuite(
      store,
      loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
      'imported',
    );
    const spec = studySpecSchema.parse({
      name: 'a judge named by its model id',
      suite: 'fixture-suite',
      judges: [
        {
          id: judgeName,
          provider: 'anthropic',
          model: 'claude-3-7-sonnet-20250219',
          baseUrl: modelsUrl,
        },
      ],
      reps: 3,
      arms: { cues: [{ kind: 'preset', preset: 'strong' }], placements: ['system', 'user'] },
    });
    return createStudy(store, spec, listSuiteItems(store, 'fixture-suite'));
  } finally {
    setup.close();
  }
}

describe('a judge named by its model id', () => {
  it('runs and shows under that name in every figure and the CSV', async () => {
    const models = await startFakeModelServer({ promptCache: true });
    models.handle('anthropic', deferentialJudge());
    const dir = makeTempDir();
    const workspace = join(dir.path, 'ws');
    const studyId = namedStudy(workspace, models.url);
    const engine = await startEngine({
      workspace,
      env: { ANTHROPIC_API_KEY: 'sk-test-names', CUELAB_TRUSTED_ENDPOINTS: models.url },
    });
    const browser = await launchBrowser({ width: 1024, height: 700 });
    try {
      const client = createLabClient(engine.address);
      const deadline = Date.now() + 90_000;
      for (;;) {
        const progress = await client.studyProgress({ studyId });
        if (progress.ok && progress.value.status === 'completed') break;
        if (Date.now() > deadline) throw new Error(`the study did not finish: ${engine.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(models.callCount('anthropic')).toBeGreaterThan(0);

      const page = await browser.context.newPage();
      await page.goto(`${engine.url}#/results/${encodeURIComponent(studyId)}`);
      await waitConnected(page);
      const filled = page.locator('[data-testid^="chart-"][data-filled="true"]');
      await filled.first().waitFor({ state: 'visible', timeout: 30_000 });
      const charts = await filled.all();
      expect(charts.length).toBeGreaterThan(2);
      for (const chart of charts) {
        const id = await chart.getAttribute('data-testid');
        expect(await chart.textContent(), `${id} names the judge`).toContain(judgeName);
      }
      await saveScreenshot(page, 'model-id-judge-results-1024');
      await page.setViewportSize({ width: 1440, height: 900 });
      await saveScreenshot(page, 'model-id-judge-results-1440');

      const csv = await client.reportCsv({ studyId, table: 'flips' });
      expect(csv.ok && JSON.stringify(csv.value)).toContain(judgeName);
    } finally {
      await browser.close();
      await engine.stop();
      await models.close();
      dir.remove();
    }
  }, 180_000);
});
