/**
 * The Builder's estimate prices the prompt cache and says what the study would cost without
 * it: a study of an Anthropic judge, opened in the Builder from the Runs screen.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { pauseStudy } from '../../src/main/engine/store/study-state';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { studySpecSchema } from '../../src/shared/study-spec';
import { makeTempDir } from '../helpers/temp-dir';
import { launchBrowser } from './helpers/browser';
import { startEngine } from './helpers/engine';
import { openStudyDetail, saveScreenshot } from './helpers/lab-page';

describe('Builder: cost with and without prompt caching', () => {
  it('shows the cached estimate and the uncached one beside it', async () => {
    const dir = makeTempDir();
    const workspace = join(dir.path, 'ws');
    const setup = createEngine({ path: workspace, source: 'flag' });
    let studyId: string;
    try {
      saveSuite(
        engineStore(setup),
        loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
        'imported',
      );
      const spec = studySpecSchema.parse({
        name: 'sonnet under the strong cue',
        suite: 'fixture-suite',
        judges: [{ id: 'sonnet', provider: 'anthropic', model: 'claude-3-7-sonnet-20250219' }],
        reps: 3,
      });
      studyId = createStudy(
        engineStore(setup),
        spec,
        listSuiteItems(engineStore(setup), 'fixture-suite'),
      );
      pauseStudy(engineStore(setup), studyId);
    } finally {
      setup.close();
    }
    const engine = await startEngine({ workspace, env: { ANTHROPIC_API_KEY: 'sk-test-est' } });
    const browser = await launchBrowser({ width: 1024, height: 700 });
    try {
      const page = await browser.context.newPage();
      const detail = await openStudyDetail(page, engine.url, studyId);
      await detail.getByRole('button', { name: 'Open in Builder' }).click();
      const uncached = page.getByTestId('estimate-uncached');
      await uncached.waitFor({ state: 'visible', timeout: 30_000 });
      expect(await uncached.textContent()).toMatch(/with prompt caching; \$[\d,.]+ without/);
      await uncached.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'builder-cache-estimate-1024');
      await page.setViewportSize({ width: 1440, height: 900 });
      await uncached.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'builder-cache-estimate-1440');
    } finally {
      await browser.close();
      await engine.stop();
      dir.remove();
    }
  }, 90_000);
});
