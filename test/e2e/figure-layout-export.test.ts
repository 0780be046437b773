/**
 * Figure exports are independent of the window: made in the dark theme at 1024 px they come
 * out light, at a journal's column width (7.16 in or 3.5 in) and 300 or 600 dpi (written in
 * the PNG's pHYs chunk), with the font stack on every SVG text, the SIMULATED mark kept, and a
 * print page that Chromium turns into a vector PDF (text and paths, no raster image).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { longNamesCsv } from './helpers/figure-layout-data';
import { openLayoutLab, type LayoutLab } from './helpers/figure-layout-lab';
import { screenshotDir, useTheme } from './helpers/lab-page';
import { download, pngDpi, pngSize } from './helpers/results-fixture';

let lab: LayoutLab | undefined;
let page: Page;

beforeAll(async () => {
  lab = await openLayoutLab({ long: longNamesCsv() }, { width: 1024, height: 700 }, 'dark');
  page = lab.page;
  await lab.open(`results/${lab.studies.long ?? ''}`);
  await useTheme(page, 'dark');
  await page.locator('[data-testid="chart-flips"][data-filled="true"]').waitFor();
});

afterAll(async () => {
  await lab?.close();
});

/** The colour of a PNG's pixel, read back by Chromium. */
async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    async ({ base64, x, y }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no canvas');
      context.drawImage(image, 0, 0);
      return [...context.getImageData(x, y, 1, 1).data];
    },
    { base64: bytes.toString('base64'), x, y },
  );
}

describe('figure exports made in the dark theme at 1024 px', () => {
  test('PNG: double column at 300 dpi, light background, SIMULATED strip kept', async () => {
    const file = await download(page, 'export-flips-png');
    const bytes = readFileSync(file.path);
    writeFileSync(join(screenshotDir, 'figure-layout-export-flips.png'), bytes);
    expect(pngSize(bytes).width).toBe(Math.round(7.16 * 300));
    expect(pngDpi(bytes)).toBe(300);
    const height = pngSize(bytes).height;
    expect(await pixel(bytes, 2100, height - 4)).toEqual([255, 255, 255, 255]);
    // The strip on top is the light theme's SIMULATED tint, not the dark one.
    expect(await pixel(bytes, 2100, 10)).toEqual([0xf1, 0xec, 0xfa, 255]);
  });

  test('PNG: single column at 600 dpi', async () => {
    await page.getByTestId('export-severity-size').selectOption('single');
    await page.getByTestId('export-severity-dpi').selectOption('600');
    const file = await download(page, 'export-severity-png');
    const bytes = readFileSync(file.path);
    writeFileSync(join(screenshotDir, 'figure-layout-export-severity-single.png'), bytes);
    expect(pngSize(bytes).width).toBe(3.5 * 600);
    expect(pngDpi(bytes)).toBe(600);
  });

  test('SVG: sized in inches, light, the font stack on every text, SIMULATED kept', async () => {
    const file = await download(page, 'export-mitigations-svg');
    const svg = readFileSync(file.path, 'utf8');
    expect(svg).toMatch(/<svg[^>]* width="7\.1600in"/);
    expect(svg).toContain('fill="#ffffff"');
    expect(svg).not.toContain('#1d2024');
    expect(svg).toContain('SIMULATED: synthetic-judge data');
    const texts = svg.match(/<text[^>]*>/g) ?? [];
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) expect(text).toMatch(/font-family="Arial, [^"]*sans-serif"/);
    expect(svg).not.toContain('tabindex');
  });

  test('PDF: the print page holds only the figure and prints as vectors', async () => {
    await page.evaluate(() => {
      const pages: string[] = [];
      Object.assign(window, { printPages: pages });
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of change.addedNodes)
            if (node instanceof HTMLIFrameElement) pages.push(node.srcdoc);
      }).observe(document.body, { childList: true });
    });
    await page.getByTestId('export-ablation-pdf').click();
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
      writeFileSync(join(screenshotDir, 'figure-layout-export-ablation.pdf'), pdf);
      const text = pdf.toString('latin1');
      expect(text.startsWith('%PDF')).toBe(true);
      expect(text).toMatch(/\/Type\s*\/Font/);
      expect(text).not.toMatch(/\/Subtype\s*\/Image/);
      expect(text.match(/\/Type\s*\/Page\b/g)?.length).toBe(1);
    } finally {
      await printer.close();
    }
  });
});
