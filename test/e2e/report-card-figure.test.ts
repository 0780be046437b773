/**
 * The report card figure in Chromium: cue-family arms with their placebos, two judges with long
 * real model ids side by side (each with its uncued accuracy, self-consistency and cost), laid
 * out at 1024 and 1440 px with nothing outside, cut or overlapping; the flag follows the
 * Tolerance field, which survives a reload and goes into the CSV; exported as PNG and SVG at
 * 3.5 in and 7.16 in (the SVGs laid out again without faults), PDF and CSV, SIMULATED kept.
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
  'Qwen/Qwen3-235B-A22B-Instruct-2507-FP8',
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
      for (const judge of judges) expect(text).toContain(`${judge}: uncued accuracy`);
      expect(text).toMatch(/self-consistency \d+\.\d% · cost unknown/);
      expect(await page.getByTestId('card-judge').count()).toBe(judges.length);
      await card.screenshot({ path: join(screenshotDir, `report-card-${width}.png`) });
      await saveScreenshot(page, `report-card-page-${width}`);
      expect(await figureLayoutFaults(page)).toEqual([]);
    });
  }

  test('flags only above the Tolerance field, keeps it across a reload, and exports it in the CSV', async () => {
    const card = page.getByTestId('chart-card');
    const flaggedAt = async (tolerance: number) => {
      const match = new RegExp(`(\\d+) flagged above ${tolerance} pp`).exec(
        (await card.textContent()) ?? '',
      );
      return match ? Number(match[1]) : -1;
    };
    const field = page.getByTestId('card-tolerance');
    await expect.poll(() => flaggedAt(0)).toBeGreaterThan(0);
    await field.fill('-5');
    await expect.poll(async () => (await card.textContent()) ?? '').toContain('outside 0 to 100');
    await field.fill('60');
    await expect.poll(() => flaggedAt(60)).toBe(0);
    await page.reload();
    await page.locator('[data-testid="chart-card"][data-filled="true"]').waitFor();
    expect(await page.getByTestId('card-tolerance').inputValue()).toBe('60');
    expect(await flaggedAt(60)).toBe(0);
    await card.screenshot({ path: join(screenshotDir, 'report-card-tolerance-60.png') });
    const csvFile = await download(page, 'export-card-csv');
    const csv = readFileSync(csvFile.path, 'utf8').split('\r\n');
    const header = (csv[0] ?? '').split(',');
    const at = (name: string) => header.indexOf(name);
    expect(at('tolerancePp')).toBeGreaterThan(0);
    expect(at('judgeCostUsd')).toBeGreaterThan(0);
    const rows = csv.slice(1).filter((line) => line !== '');
    expect(rows.length).toBe(judges.length * 3);
    expect(rows.some((line) => line.startsWith('Qwen/Qwen3-235B-A22B-Instruct-2507-FP8,'))).toBe(
      true,
    );
    for (const line of rows) {
      const cells = line.split(',');
      expect(cells[at('tolerancePp')]).toBe('60');
      expect(cells[at('flag')]).toBe('');
      expect(cells[cells.length - 1]).toBe('true');
    }
    await page.getByTestId('card-tolerance').fill('0');
    await expect.poll(() => flaggedAt(0)).toBeGreaterThan(0);
  });

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
    expect(await exportedFaults(svg, 'single')).toEqual([]);
    await page.getByTestId('export-card-size').selectOption('double');
    const wide = readFileSync((await download(page, 'export-card-svg')).path, 'utf8');
    expect(wide).toMatch(/<svg[^>]* width="7\.1600in"/);
    expect(wide).toContain('Qwen/Qwen3-235B-A22B-Instruct-2507-FP8');
    expect(await exportedFaults(wide, 'double')).toEqual([]);
  });

  test('exports a one-page vector PDF of the card', async () => {
    await page.evaluate(() => {
      const pages: string[] = [];
      Object.assign(window, { printPages: pages });
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of change.addedNodes)
            if (node instanceof HTMLIFrameElement) pages.push(node.srcdoc);
      }).observe(document.body, { childList: true });
    });
    await page.getByTestId('export-card-pdf').click();
    await page.getByText('Print dialog opened').waitFor();
    const html = await page.evaluate(
      () => (window as unknown as { printPages: string[] }).printPages[0] ?? '',
    );
    expect(html).toContain('@page{size:7.1600in');
    expect(html).toContain('SIMULATED: synthetic-judge data');
    const printer = await page.context().newPage();
    try {
      await printer.setContent(html);
      const pdf = await printer.pdf({ preferCSSPageSize: true, printBackground: true });
      writeFileSync(join(screenshotDir, 'report-card-export.pdf'), pdf);
      const text = pdf.toString('latin1');
      expect(text.startsWith('%PDF')).toBe(true);
      expect(text).not.toMatch(/\/Subtype\s*\/Image/);
      expect(text.match(/\/Type\s*\/Page\b/g)?.length).toBe(1);
    } finally {
      await printer.close();
    }
  });
});

/** The layout faults of an exported SVG, shown alone in a chart card as the check expects. */
async function exportedFaults(svg: string, size: string) {
  const viewer = await page.context().newPage();
  try {
    await viewer.setContent(
      `<!doctype html><body style="margin:0"><section class="chart-card" data-testid="chart-export-${size}">${svg}</section></body>`,
    );
    await viewer.screenshot({ path: join(screenshotDir, `report-card-export-${size}.svg.png`) });
    return await figureLayoutFaults(viewer);
  } finally {
    await viewer.close();
  }
}
