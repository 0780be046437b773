/**
 * The report card figure in Chromium: cue-family arms with their placebos, two judges with long
 * real model ids side by side, laid out at 1024 and 1440 px with nothing outside, cut or
 * overlapping, and exported as PNG at 3.5 in and 7.16 in and as SVG, SIMULATED kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { figureLayoutFaults } from './helpers/figure-layout-check';
import { openLayoutLab, type LayoutLab } from './helpers/figure-layout-lab';
import { saveScreenshot, screenshotDir } from './helpers/lab-page';
import { download, pngSize, resultsCsv } from './helpers/results-fixture';

const judges = [
  'anthropic/claude-3-7-sonnet-20250219-thinking-16k',
  'openai/gpt-5.1-2025-11-13-reasoning-effort-high',
];
const arms = [
  ['family:authority@system', 'system', 0.35],
  ['family:authority/placebo@system', 'system', 0.05],
  ['family:fake-verification@agent-tool-output', 'agent-tool-output', 0.4],
  ['family:fake-verification/placebo@agent-tool-output', 'agent-tool-output', 0.05],
  ['family:verbosity@narration', 'narration', 0.15],
  ['family:verbosity/placebo@narration', 'narration', 0.05],
] as const;

let lab: LayoutLab | undefined;
let page: Page;

beforeAll(async () => {
  const csv = resultsCsv({
    judges,
    datasets: ['agent-judge-filesystem-hard', 'aj-postgres-migrations'],
    arms: arms.map(([condition, placement, flip]) => ({
      condition,
      placement,
      mitigation: '',
      flip,
    })),
    cueLabel: 'family',
  });
  lab = await openLayoutLab({ card: csv }, { width: 1440, height: 900 });
  page = lab.page;
  await lab.open(`results/${lab.studies.card ?? ''}`);
  await page.locator('[data-testid="chart-card"][data-filled="true"]').waitFor({ timeout: 15_000 });
});

afterAll(async () => {
  await lab?.close();
});

describe('the report card figure', () => {
  for (const { width, height } of [
    { width: 1024, height: 700 },
    { width: 1440, height: 900 },
  ]) {
    test(`lays out at ${width} px with long model ids`, async () => {
      await page.setViewportSize({ width, height });
      const card = page.getByTestId('chart-card');
      await card.scrollIntoViewIfNeeded();
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('SIMULATED');
      expect(text).toContain('fake-verification');
      await card.screenshot({ path: join(screenshotDir, `report-card-${width}.png`) });
      await saveScreenshot(page, `report-card-page-${width}`);
      expect(await figureLayoutFaults(page)).toEqual([]);
    });
  }

  test('exports PNG at 7.16 in and 3.5 in, and SVG with the mark', async () => {
    const double = readFileSync((await download(page, 'export-card-png')).path);
    expect(pngSize(double).width).toBe(Math.round(7.16 * 300));
    writeFileSync(join(screenshotDir, 'report-card-export-double.png'), double);
    await page.getByTestId('export-card-size').selectOption('single');
    const single = readFileSync((await download(page, 'export-card-png')).path);
    expect(pngSize(single).width).toBe(Math.round(3.5 * 300));
    writeFileSync(join(screenshotDir, 'report-card-export-single.png'), single);
    const svg = readFileSync((await download(page, 'export-card-svg')).path, 'utf8');
    expect(svg).toMatch(/<svg[^>]* width="3\.5000in"/);
    expect(svg).toContain('SIMULATED');
  });
});
