/**
 * The browser lab as `npm start` serves it (no `--allow-path`): the Import screen previews the
 * example run CueLab ships by its path, refuses a folder of the user's until it is added in
 * Settings → Import folders, and then previews it too. Chromium against a real `cuelab serve`;
 * screenshots land in test-results/.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { repoRoot, startEngine, type RunningEngine } from './helpers/engine';
import { saveScreenshot, waitConnected } from './helpers/lab-page';

const exampleRun = join(repoRoot, 'resources', 'runs', 'terminal-bench-hello-world');
const userRuns = mkdtempSync(join(tmpdir(), 'cuelab-user-runs-'));
let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;
let page: Page;

async function preview(path: string): Promise<string> {
  await page.goto(`${engine!.url.replace(/#.*$/, '')}#/import`);
  await waitConnected(page);
  await page.getByTestId('import-path').fill(path);
  await page.getByRole('button', { name: 'Preview' }).click();
  const answer = page.locator('[data-testid="import-summary"], .import-error');
  await answer.first().waitFor();
  return (await answer.first().textContent()) ?? '';
}

beforeAll(async () => {
  cpSync(join(repoRoot, 'test', 'fixtures', 'import', 'terminal-bench-real'), userRuns, {
    recursive: true,
  });
  engine = await startEngine({ allowRepository: false });
  browser = await launchBrowser({ width: 1024, height: 700 });
  page = await browser.context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  rmSync(userRuns, { recursive: true, force: true });
});

describe('Import folders in the browser lab', () => {
  test('previews the shipped example run by its path, with no --allow-path', async () => {
    expect(await preview(exampleRun)).toMatch(/^Preview: 1 items? into suite /);
    await expect
      .poll(() => page.getByTestId('import-path-roots').textContent())
      .toContain('folders added in Settings');
  });

  test('refuses a folder of the user’s until Settings adds it, then previews it', async () => {
    expect(await preview(userRuns)).toContain('outside the folders this engine may read');
    await page.goto(`${engine!.url.replace(/#.*$/, '')}#/settings`);
    await waitConnected(page);
    const panel = page.getByTestId('import-folders-panel');
    await panel.getByRole('textbox', { name: 'Folder' }).fill(userRuns);
    await panel.getByRole('button', { name: 'Add folder' }).click();
    await expect.poll(() => panel.getByTestId('import-folder').count()).toBe(3);
    expect(await panel.getByTestId('import-folder').last().textContent()).toContain(userRuns);
    await panel.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'settings-import-folders-1024');
    expect(await preview(userRuns)).toMatch(/^Preview: \d+ items? into suite /);
  });
});
