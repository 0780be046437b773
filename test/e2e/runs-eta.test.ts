/**
 * The Runs screen shows the engine's measured time left: a study over the fixture suite runs
 * in a real `cuelab serve` against the fake model server, slowly enough to watch, and Chromium
 * shows its ETA with the pace it came from and done counted against the planned total.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema } from '../../src/shared/study-spec';
import { startFakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { makeTempDir } from '../helpers/temp-dir';
import { launchBrowser } from './helpers/browser';
import { startEngine } from './helpers/engine';
import { openStudyDetail, saveScreenshot } from './helpers/lab-page';
import { engineStore } from '../../src/main/engine/engine-store';

/** A workspace with the fixture suite and one study of 18 reps over it, not started. */
function pacedStudy(workspace: string, modelsUrl: string): string {
  const setup = createEngine({ path: workspace, source: 'flag' });
  try {
    saveSuite(
      engineStore(setup),
      loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
      'imported',
    );
    const spec = studySpecSchema.parse({
      name: 'paced study',
      suite: 'fixture-suite',
      judges: [
        { id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: modelsUrl },
      ],
      reps: 3,
      concurrency: { total: 1, containers: 1 },
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

describe('Runs: honest time', () => {
  it('shows the measured ETA and pace, and done out of the planned total', async () => {
    // Each model call takes 300 ms: the 18 reps run for several seconds, one at a time.
    const models = await startFakeModelServer({ latencyMs: 300 });
    models.handle('anthropic', deferentialJudge());
    const dir = makeTempDir();
    const workspace = join(dir.path, 'ws');
    const studyId = pacedStudy(workspace, models.url);
    const engine = await startEngine({
      workspace,
      env: { ANTHROPIC_API_KEY: 'sk-test-eta', CUELAB_TRUSTED_ENDPOINTS: models.url },
    });
    const browser = await launchBrowser({ width: 1280, height: 900 });
    try {
      const page = await browser.context.newPage();
      const detail = await openStudyDetail(page, engine.url, studyId);
      const eta = detail.getByTestId('eta');
      await eta.waitFor({ state: 'visible', timeout: 30_000 });
      const figure = /^\d+ (s|min)\s*\d+(\.\d+)? reps\/min$/;
      expect(await eta.textContent()).toMatch(figure);
      // 2 items × 3 reps × (uncued + 2 cued conditions): all 18 counted from the start.
      expect(await detail.getByText(/^\d+ \/ 18$/).count()).toBe(1);
      await saveScreenshot(page, 'runs-eta');
      // While it runs the ETA stays a figure: it never falls back to "—".
      let looks = 0;
      while ((await detail.getAttribute('data-status')) === 'running' && looks < 10) {
        const text = (await eta.count()) ? await eta.textContent() : null;
        if ((await detail.getAttribute('data-status')) !== 'running') break;
        expect(text).toMatch(figure);
        looks += 1;
        await page.waitForTimeout(250);
      }
      expect(looks).toBeGreaterThan(0);
    } finally {
      await browser.close();
      await engine.stop();
      await models.close();
      dir.remove();
    }
  }, 90_000);
});
