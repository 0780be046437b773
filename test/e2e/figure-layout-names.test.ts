/**
 * Every figure of Results, drawn in Chromium with real-world names (dated model ids, conditions
 * that carry placement and mitigation) and with the demo's short names, at three window widths:
 * no text may leave its figure, be cut short, or sit on another text or on a whisker, and no
 * card may be cut by overflow. Screenshots land in test-results/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { figureLayoutFaults } from './helpers/figure-layout-check';
import { longNamesCsv, longNamesGradedCsv } from './helpers/figure-layout-data';
import { openLayoutLab, type LayoutLab } from './helpers/figure-layout-lab';
import { saveScreenshot, screenshotDir } from './helpers/lab-page';
import { resultsCsv } from './helpers/results-fixture';

const filledCharts = [
  'flips',
  'severity',
  'effort',
  'ablation',
  'placement',
  'mitigations',
  // The harm/help frontier: a second figure of the mitigations table.
  'frontier',
  'regression',
  'accuracy',
];
const widths = [
  { name: 'narrow', width: 860, height: 900 },
  { name: '1024', width: 1024, height: 700 },
  { name: '1440', width: 1440, height: 900 },
];

let lab: LayoutLab | undefined;
let page: Page;

beforeAll(async () => {
  lab = await openLayoutLab(
    { long: longNamesCsv(), graded: longNamesGradedCsv(), demo: resultsCsv() },
    { width: 1440, height: 900 },
  );
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

async function openResults(study: 'long' | 'graded' | 'demo', charts: string[]): Promise<void> {
  if (!lab) throw new Error('The lab did not start.');
  await lab.open(`results/${lab.studies[study] ?? ''}`);
  for (const table of charts)
    await page
      .locator(`[data-testid="chart-${table}"][data-filled="true"]`)
      .waitFor({ state: 'visible', timeout: 15_000 });
}

describe.each(widths)('figures at $name ($width px)', ({ name, width, height }) => {
  test('long real-world names: nothing outside, cut or overlapping', async () => {
    await page.setViewportSize({ width, height });
    await openResults('long', filledCharts);
    await saveScreenshot(page, `figure-layout-long-${name}`);
    for (const table of filledCharts)
      await page
        .getByTestId(`chart-${table}`)
        .screenshot({ path: join(screenshotDir, `figure-layout-long-${name}-${table}.png`) });
    expect(await figureLayoutFaults(page)).toEqual([]);
  });

  test('the demo data: nothing outside, cut or overlapping', async () => {
    await page.setViewportSize({ width, height });
    await openResults('demo', filledCharts);
    await saveScreenshot(page, `figure-layout-demo-${name}`);
    expect(await figureLayoutFaults(page)).toEqual([]);
  });

  test('graded flips with long names', async () => {
    await page.setViewportSize({ width, height });
    await openResults('graded', ['graded']);
    expect(await figureLayoutFaults(page)).toEqual([]);
  });
});
