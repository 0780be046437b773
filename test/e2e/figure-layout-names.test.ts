/**
 * Every figure of Results, drawn in Chromium with real-world names (dated model ids, conditions
 * that carry placement and mitigation) and with the demo's short names, at three window widths:
 * no text may leave its figure, be cut short, or sit on another text or on a whisker, and no
 * card may be cut by overflow. Screenshots land in test-results/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { assertBuilt, startEngine, type RunningEngine } from './helpers/engine';
import { figureLayoutFaults } from './helpers/figure-layout-check';
import { longNamesCsv, longNamesGradedCsv } from './helpers/figure-layout-data';
import { saveScreenshot, screenshotDir, waitConnected } from './helpers/lab-page';
import { importStudy, resultsCsv } from './helpers/results-fixture';

const filledCharts = [
  'flips',
  'severity',
  'effort',
  'ablation',
  'placement',
  'mitigations',
  'accuracy',
];
const widths = [
  { name: 'narrow', width: 860, height: 900 },
  { name: '1024', width: 1024, height: 700 },
  { name: '1440', width: 1440, height: 900 },
];

let folder = '';
const studies: Record<string, string> = {};
let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;
let page: Page;

beforeAll(async () => {
  assertBuilt();
  folder = mkdtempSync(join(tmpdir(), 'cuelab-e2e-figure-layout-'));
  const workspace = join(folder, 'workspace');
  const files = { long: longNamesCsv(), graded: longNamesGradedCsv(), demo: resultsCsv() };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(folder, `${name}.csv`), text);
    studies[name] = importStudy(workspace, join(folder, `${name}.csv`), `Layout ${name}`);
  }
  engine = await startEngine({ workspace });
  browser = await launchBrowser({ width: 1440, height: 900 });
  page = await browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
});

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function openResults(study: string, charts: string[]): Promise<void> {
  if (!engine) throw new Error('The engine did not start.');
  await page.goto(`${engine.url}#/results/${study}`);
  await waitConnected(page);
  for (const table of charts)
    await page
      .locator(`[data-testid="chart-${table}"][data-filled="true"]`)
      .waitFor({ state: 'visible', timeout: 15_000 });
}

describe.each(widths)('figures at $name ($width px)', ({ name, width, height }) => {
  test('long real-world names: nothing outside, cut or overlapping', async () => {
    await page.setViewportSize({ width, height });
    await openResults(studies.long ?? '', filledCharts);
    await saveScreenshot(page, `figure-layout-long-${name}`);
    for (const table of filledCharts)
      await page
        .getByTestId(`chart-${table}`)
        .screenshot({ path: join(screenshotDir, `figure-layout-long-${name}-${table}.png`) });
    expect(await figureLayoutFaults(page)).toEqual([]);
  });

  test('the demo data: nothing outside, cut or overlapping', async () => {
    await page.setViewportSize({ width, height });
    await openResults(studies.demo ?? '', filledCharts);
    await saveScreenshot(page, `figure-layout-demo-${name}`);
    expect(await figureLayoutFaults(page)).toEqual([]);
  });

  test('graded flips with long names', async () => {
    await page.setViewportSize({ width, height });
    await openResults(studies.graded ?? '', ['graded']);
    expect(await figureLayoutFaults(page)).toEqual([]);
  });
});
