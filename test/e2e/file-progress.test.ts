/**
 * The files worker's progress on the screens that wait on it, in Chromium against a real
 * `cuelab serve`: the Import screen's busy line and the bundle controls' status say how far the
 * engine has come. The engine's answer is held back from the page (the request still reaches the
 * engine, which does the work and publishes its progress) until the line has been read and
 * screenshotted at 1024x700 and 1440x900, then let through.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { runStudy } from '../helpers/bundle-study';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { repoRoot, startEngine, type RunningEngine } from './helpers/engine';
import { saveScreenshot, waitConnected } from './helpers/lab-page';
import { answerOf } from '../helpers/answer';

const fixtures = join(repoRoot, 'test', 'fixtures', 'import');
const small = { width: 1024, height: 700 };
const sizes = [small, { width: 1440, height: 900 }];
let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;
let page: Page;
let folder = '';
let bundleFile = '';

/** Holds the engine's answer to `method` until `release` is called. */
async function holdAnswer(method: string): Promise<{ release: () => Promise<void> }> {
  let held: Promise<void> = Promise.resolve();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/${method}`, async (route: Route) => {
    // The request goes on to the engine at once; only its answer waits.
    const response = await route.fetch();
    held = released.then(() => route.fulfill({ response }));
    await held;
  });
  return {
    release: async () => {
      release();
      await held;
      await page.unroute(`**/api/${method}`);
    },
  };
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'cuelab-e2e-file-progress-'));
  // A bundle of a small synthetic study, made in a workspace of its own.
  const maker = createEngine({ path: join(folder, 'maker'), source: 'flag' });
  try {
    const studyId = await runStudy(engineStore(maker));
    const bundle = await answerOf(maker.handlers.exportBundle({ studyId }));
    bundleFile = join(folder, bundle.fileName);
    writeFileSync(bundleFile, Buffer.from(bundle.base64, 'base64'));
  } finally {
    maker.close();
  }
  engine = await startEngine();
  browser = await launchBrowser(small);
  page = await browser.context.newPage();
  await page.goto(`${engine.url.replace(/#.*$/, '')}#/import`);
  await waitConnected(page);
});

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('progress of file work', () => {
  test('the Import screen says how far reading the runs has come', async () => {
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    await page.getByTestId('import-path').fill(fixtures);
    const hold = await holdAnswer('importRuns');
    await page.getByRole('button', { name: 'Preview' }).click();
    const busy = page.getByTestId('import-busy');
    // A generous wait: under load the first job also starts the files worker.
    await expect
      .poll(async () => (await busy.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/^Reading the runs… reading runs \(\d+%\)$/);
    for (const size of sizes) {
      await page.setViewportSize(size);
      await saveScreenshot(page, `file-progress-import-${size.width}`);
    }
    await hold.release();
    await page.getByTestId('import-summary').waitFor({ timeout: 30_000 });
    expect(await busy.count()).toBe(0);
  });

  test('opening a bundle shows the step the engine is on', async () => {
    await page.setViewportSize(small);
    await page.goto(`${engine!.url.replace(/#.*$/, '')}#/replay`);
    await waitConnected(page);
    const hold = await holdAnswer('openBundle');
    await page.getByTestId('open-bundle-input').setInputFiles(bundleFile);
    const status = page.getByTestId('bundle-status');
    await expect
      .poll(async () => (await status.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/^Opening the bundle… storing 6 reps \(50%\)$/);
    for (const size of sizes) {
      await page.setViewportSize(size);
      await saveScreenshot(page, `file-progress-bundle-${size.width}`);
    }
    await hold.release();
    await expect
      .poll(async () => (await status.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/^Opened bundle study: 6 reps, \d+ labels?$/);
  });
});
