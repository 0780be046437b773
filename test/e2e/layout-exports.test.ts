/**
 * Every drawn figure and table of Results, exported as SVG at a journal's single (3.5 in) and
 * double (7.16 in) column, then drawn alone in Chromium and measured by the general text check
 * (helpers/layout-faults.ts): no text outside the figure, cut, squeezed, on another text, or a
 * word broken where it has no joint. The names are long and joint-poor on purpose, and the
 * file names must say the size, so a single-column export never overwrites a double one.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openLayoutLab, type LayoutLab } from './helpers/figure-layout-lab';
import { screenshotDir } from './helpers/lab-page';
import { svgFileFaults, type TextFault } from './helpers/layout-faults';
import { download, resultsCsv } from './helpers/results-fixture';

const names = {
  judges: [
    'anthropic/claude-3-7-sonnet-20250219-thinking-16k',
    'openrouter/meta-llama/llama-4-maverick-17b-128e-instruct',
    'deepseekreasonerexperimental',
  ],
  datasets: ['datasets', 'mcpmark-postgres-lego-inventory', 'humanevalplusverified', 'x'],
  arms: [
    {
      condition: 'prescreened-by-automated-linter@system_prompt',
      placement: 'system_prompt',
      mitigation: '',
      flip: 0.35,
    },
    {
      condition: 'prescreened-by-automated-linter@system_prompt+evidence-first',
      placement: 'system_prompt',
      mitigation: 'evidence-first-verification-guard',
      flip: 0.12,
    },
    {
      condition: 'majority-of-prior-reviewers-disagreed@user_message',
      placement: 'user_message',
      mitigation: '',
      flip: 0.25,
    },
  ],
  cueLabel: 'prescreened-by-automated-linter',
};

let lab: LayoutLab | undefined;
let page: Page;
let measurer: Page;
let charts: string[] = [];

beforeAll(async () => {
  lab = await openLayoutLab({ wide: resultsCsv(names, 7_301) }, { width: 1024, height: 700 });
  page = lab.page;
  measurer = await page.context().newPage();
  mkdirSync(screenshotDir, { recursive: true });
  await lab.open(`results/${lab.studies.wide ?? ''}`);
  await page.locator('[data-testid="chart-flips"][data-filled="true"]').waitFor();
  await page.waitForTimeout(500);
  charts = await page.evaluate(() =>
    [...document.querySelectorAll('section.chart-card[data-filled="true"]')].map((card) =>
      (card.getAttribute('data-testid') ?? '').replace(/^chart-/, ''),
    ),
  );
});

afterAll(async () => {
  await lab?.close();
});

describe.each([
  { size: 'single', inches: '3.5in' },
  { size: 'double', inches: '7.16in' },
])('SVG exports at $inches', ({ size, inches }) => {
  test('every figure lays out its text inside the box, and the file name says the size', async () => {
    expect(charts.length).toBeGreaterThanOrEqual(7);
    const found: Record<string, TextFault[]> = {};
    for (const chart of charts) {
      await page.getByTestId(`export-${chart}-size`).selectOption(size);
      const file = await download(page, `export-${chart}-svg`);
      expect(file.name).toMatch(new RegExp(`-${chart}-${inches.replace('.', '\\.')}\\.svg$`));
      const svg = readFileSync(file.path, 'utf8');
      writeFileSync(join(screenshotDir, `layout-export-${chart}-${inches}.svg`), svg);
      expect(svg).toMatch(new RegExp(`<svg[^>]* width="${inches.replace('in', '')}`));
      const faults = await svgFileFaults(measurer, svg);
      await measurer.screenshot({
        path: join(screenshotDir, `layout-export-${chart}-${inches}.png`),
        fullPage: true,
      });
      if (faults.length > 0) found[chart] = faults;
    }
    expect(found).toEqual({});
  });
});
