/**
 * Compare in Chromium at 1024×700 against a real `cuelab serve`: three imported studies (the
 * hand-worked example of test/unit/analysis-study-compare.test.ts: a first run, a rerun on the
 * same items, and a synthetic study of other items). The window shows the paired differences
 * and the changed items, exports the CLI's CSV, and marks SIMULATED when a study is synthetic.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { saveScreenshot, screenshotDir } from './helpers/lab-page';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';
import { cuelab, download, importStudy, pngDpi, pngSize } from './helpers/results-fixture';

const HEADER =
  'item_id,dataset,judge,condition,cue_direction,rep,verdict,score,gold,dimension,turns,simulated';

/** Items 1..4 uncued right, the rest uncued wrong; `flipped` items' cued majority turns. */
function records(judge: string, dataset: string, items: number, flipped: number[], sim = false) {
  const lines = [HEADER];
  for (let index = 1; index <= items; index += 1) {
    const uncued = index <= 4 ? 'pass' : 'fail';
    const cued = flipped.includes(index) ? (uncued === 'pass' ? 'fail' : 'pass') : uncued;
    const direction = uncued === 'pass' ? 'severity' : 'leniency';
    for (const rep of [1, 2, 3]) {
      const item = [`item-${index}`, dataset, judge];
      lines.push(
        [...item, 'uncued', '', rep, uncued, '', 'pass', 'task_success', '', sim].join(','),
      );
      lines.push(
        [...item, 'authority', direction, rep, cued, '', 'pass', 'task_success', '', sim].join(','),
      );
    }
  }
  return lines.join('\n');
}

/** 12 items all uncued right; the bandwagon family flips the first `flipped`, its placebo none. */
function cardRecords(judge: string, flipped: number) {
  const lines = [HEADER];
  for (let index = 1; index <= 12; index += 1)
    for (const rep of [1, 2]) {
      const item = [`card-${index}`, 'cards', judge];
      const row = (condition: string, direction: string, verdict: string) =>
        [...item, condition, direction, rep, verdict, '', 'pass', 'task_success', '', true].join(
          ',',
        );
      lines.push(row('uncued', '', 'pass'));
      lines.push(row('family:bandwagon@system', 'severity', index <= flipped ? 'fail' : 'pass'));
      lines.push(row('family:bandwagon/placebo@system', 'severity', 'pass'));
    }
  return lines.join('\n');
}

let cardId = '';
let workspace = '';
let rerunId = '';
let session: WorkspaceSession | undefined;
let page: Page;

beforeAll(async () => {
  session = await openWorkspaceSession({
    name: 'compare',
    viewport: { width: 1024, height: 700 },
    fill: (into, folder) => {
      const study = (name: string, text: string) =>
        importStudy(into, join(folder, `${name}.csv`), text, name);
      study('first run', records('judge-a', 'set', 6, [1, 2, 5]));
      study('other items', records('judge-c', 'other', 3, [1, 2, 3], true));
      rerunId = study('rerun', records('judge-a', 'set', 6, [1, 5, 6]));
      study('card before', cardRecords('Qwen/Qwen3-235B-A22B-Instruct-2507-FP8', 2));
      cardId = study('card after', cardRecords('Qwen/Qwen3-235B-A22B-Instruct-2507-FP8', 9));
    },
  });
  ({ page } = session);
  workspace = session.engine.workspace;
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('Compare view', () => {
  test('shows the paired differences and changed items, and exports the CLI csv', async () => {
    await session!.goto(`#/results/${rerunId}`);
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const panel = page.getByTestId('compare-panel');
    await panel
      .getByLabel('Compare this study (B) with study A')
      .selectOption({ label: 'first run' });
    const rates = panel.getByTestId('compare-rates');
    await expect.poll(() => rates.innerText()).toContain('paired');
    const [harmful, helpful] = await rates.locator('tbody tr').allInnerTexts();
    expect(harmful).toMatch(/harmful\s+paired\s+4\s+50\.0\s+4\s+25\.0\s+-25\.0/);
    expect(harmful).toContain('exact McNemar');
    expect(helpful).toMatch(/helpful\s+paired\s+2\s+50\.0\s+2\s+100\.0\s+50\.0/);
    const items = await panel.getByTestId('compare-items').locator('tbody tr').allInnerTexts();
    expect(items.map((row) => row.split('\t').slice(2).join(' '))).toEqual([
      'item-2 harmful flip held',
      'item-6 stayed wrong helpful flip',
    ]);
    expect(await panel.getByText('SIMULATED').count()).toBe(0);

    const csv = await download(page, 'compare-export-csv');
    const printed = cuelab(workspace, ['compare', 'first run', 'rerun', '--format', 'csv']);
    expect(readFileSync(csv.path, 'utf8').replace(/\r\n/g, '\n').trim()).toBe(
      printed.replace(/\r\n/g, '\n').trim(),
    );
    const fits = await page.evaluate(() =>
      [
        document.scrollingElement as HTMLElement,
        ...document.querySelectorAll<HTMLElement>('.compare-panel, .compare-scroll'),
      ].every((box) => box.scrollWidth <= box.clientWidth),
    );
    expect(fits).toBe(true);
    await saveScreenshot(page, 'compare-1024');
  });

  test('draws the differences as a forest plot that exports as PNG and SVG', async () => {
    const figure = page.getByTestId('compare-figure').locator('svg').first();
    const rows = figure.locator('[data-part="difference-row"]');
    expect(await rows.count()).toBe(2);
    const [harmful, helpful] = await rows.allTextContents();
    expect(harmful).toContain('judge-a · authority');
    expect(harmful).toContain('harmful flip · paired');
    expect(harmful).toContain('\u221225.0');
    expect(helpful).toContain('+50.0');
    expect(await figure.textContent()).toContain('percentage points');
    // Every label inside the figure, and none overlapping another.
    const boxes = await figure.evaluate((svg) => {
      const frame = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')].map((text) => {
        const box = text.getBoundingClientRect();
        return {
          text: text.textContent ?? '',
          left: box.left - frame.left,
          right: box.right - frame.left,
          top: box.top - frame.top,
          bottom: box.bottom - frame.top,
          width: frame.width,
          height: frame.height,
        };
      });
    });
    for (const box of boxes) {
      expect(box.left, box.text).toBeGreaterThanOrEqual(0);
      expect(box.right, box.text).toBeLessThanOrEqual(box.width);
      expect(box.bottom, box.text).toBeLessThanOrEqual(box.height);
    }
    const overlapping = boxes.filter((a, index) =>
      boxes.some(
        (b, other) =>
          other > index &&
          a.left < b.right - 0.5 &&
          b.left < a.right - 0.5 &&
          a.top < b.bottom - 0.5 &&
          b.top < a.bottom - 0.5,
      ),
    );
    expect(overlapping.map((box) => box.text)).toEqual([]);
    await page.getByTestId('compare-figure').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'compare-figure-1024');

    const png = readFileSync((await download(page, 'compare-export-png')).path);
    writeFileSync(join(screenshotDir, 'compare-export.png'), png);
    expect(pngSize(png).width).toBe(Math.round(7.16 * 300));
    expect(pngDpi(png)).toBe(300);
    expect(pngSize(png).height).toBeGreaterThan(300);

    await page.getByTestId('compare-export-dpi').selectOption('600');
    const sharp = readFileSync((await download(page, 'compare-export-png')).path);
    expect(pngSize(sharp).width).toBe(Math.round(7.16 * 600));
    expect(pngDpi(sharp)).toBe(600);

    await page.getByTestId('compare-export-size').selectOption('single');
    await page.getByTestId('compare-export-dpi').selectOption('300');
    const single = readFileSync((await download(page, 'compare-export-png')).path);
    writeFileSync(join(screenshotDir, 'compare-export-single.png'), single);
    expect(pngSize(single).width).toBe(Math.round(3.5 * 300));

    await page.getByTestId('compare-export-size').selectOption('double');
    const svg = readFileSync((await download(page, 'compare-export-svg')).path, 'utf8');
    expect(svg).toContain('width="7.1600in"');
    expect(svg).toContain('percentage points');
    expect(svg).not.toContain('SIMULATED');
  });

  test('compares other items unpaired with Fisher, marked SIMULATED', async () => {
    const panel = page.getByTestId('compare-panel');
    await panel
      .getByLabel('Compare this study (B) with study A')
      .selectOption({ label: 'other items' });
    await panel.getByText('SIMULATED', { exact: true }).waitFor();
    const rates = panel.getByTestId('compare-rates');
    await expect.poll(() => rates.innerText()).toContain('unpaired');
    expect(await rates.innerText()).toContain('Fisher exact');
    const figure = panel.getByTestId('compare-figure').locator('svg').first();
    expect(await figure.locator('[data-simulated-mark]').count()).toBe(1);
    expect(await figure.textContent()).toContain('unpaired');
    await page.getByTestId('compare-figure').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'compare-figure-simulated-1024');
    const png = readFileSync((await download(page, 'compare-export-png')).path);
    writeFileSync(join(screenshotDir, 'compare-export-simulated.png'), png);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  test('compares two report cards beside each other, at the card tolerance, as the CLI prints them', async () => {
    await session!.goto(`#/results/${cardId}`);
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const panel = page.getByTestId('compare-panel');
    await panel
      .getByLabel('Compare this study (B) with study A')
      .selectOption({ label: 'card before' });
    const cards = panel.getByTestId('compare-cards');
    await expect.poll(() => cards.innerText()).toContain('bandwagon');
    const [row] = await cards.locator('tbody tr').allInnerTexts();
    expect(row).toContain('Qwen/Qwen3-235B-A22B-Instruct-2507-FP8');
    // A flips 2 of 12 (≈17 pp beyond a placebo that flips none), B 9 of 12 (75 pp): only B flagged.
    expect(row).toMatch(/16\.7 \[[^\]]+\]\s+75\.0 \[[^\]]+\] FLAGGED\s+58\.3/);
    expect(row).toMatch(/\s— → —$/);
    const csv = await download(page, 'compare-export-cards-csv');
    const printed = cuelab(workspace, [
      'compare',
      'card before',
      'card after',
      '--card',
      '--format',
      'csv',
    ]);
    expect(readFileSync(csv.path, 'utf8').replace(/\r\n/g, '\n').trim()).toBe(
      printed.replace(/\r\n/g, '\n').trim(),
    );
    const fits = await page.evaluate(() =>
      [
        document.scrollingElement as HTMLElement,
        ...document.querySelectorAll<HTMLElement>('.compare-panel, .compare-scroll'),
      ].every((box) => box.scrollWidth <= box.clientWidth),
    );
    expect(fits).toBe(true);
    await cards.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'compare-cards-1024');
  });
});
