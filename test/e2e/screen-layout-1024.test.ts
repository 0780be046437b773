/**
 * Every screen at 1024×700 (the smallest window the lab supports) against a real `cuelab
 * serve` with a study of real-world names: no screen scrolls sideways (neither the document nor
 * the content area), stat cards show their whole value, the figures' export buttons are inside
 * their cards and the window, and the Builder's launch column never spills over its box.
 * Screenshots of each screen land in test-results/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { longNamesCsv } from './helpers/figure-layout-data';
import { openLayoutLab, type LayoutLab } from './helpers/figure-layout-lab';
import { saveScreenshot } from './helpers/lab-page';

let lab: LayoutLab | undefined;
let studyId = '';
let page: Page;

beforeAll(async () => {
  lab = await openLayoutLab(
    { long: longNamesCsv() },
    { width: 1024, height: 700 },
    'light',
    () => 'strong-pre-screening@system+guard on claude-opus-4-7-20260401',
  );
  page = lab.page;
  studyId = lab.studies.long ?? '';
});

afterAll(async () => {
  await lab?.close();
});

/** How much of the content area the lists of Runs and Replay use at 1440, and what they cut. */
const wideUse = `(() => {
  const content = document.querySelector('.content');
  const page = document.querySelector('.page');
  const style = getComputedStyle(content);
  const inner = content.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const cut = [];
  for (const node of document.querySelectorAll('.study-card *, .flip-table *'))
    if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0 && getComputedStyle(node).overflowX !== 'visible')
      cut.push((node.textContent || '').trim().slice(0, 60));
  return { used: page.getBoundingClientRect().width / inner, cut };
})()`;

/** What a screen at this size gets wrong, measured by Chromium. */
interface ScreenFaults {
  documentScroll: { scrollWidth: number; innerWidth: number };
  contentScroll: { scrollWidth: number; clientWidth: number } | null;
  cutStats: string[];
  hiddenButtons: string[];
  spilledPanels: string[];
}

// Runs in the page; plain source so no bundler helper leaks into the browser.
const measure = `(() => {
  const root = document.scrollingElement;
  const content = document.querySelector('.content');
  const within = (inner, outer) =>
    inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 &&
    inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;
  const cutStats = [];
  for (const stat of document.querySelectorAll('.stat, .stat-row > *')) {
    for (const node of [stat, ...stat.querySelectorAll('*')])
      if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0)
        cutStats.push((stat.textContent || '').trim());
    if (!within(stat.getBoundingClientRect(), { left: 0, right: innerWidth, top: -1e9, bottom: 1e9 }))
      cutStats.push('outside the window: ' + (stat.textContent || '').trim());
  }
  const hiddenButtons = [];
  for (const button of document.querySelectorAll('.chart-export')) {
    const box = button.getBoundingClientRect();
    const card = button.closest('.chart-card').getBoundingClientRect();
    if (!within(box, card) || box.right > innerWidth || box.width === 0)
      hiddenButtons.push(button.getAttribute('data-testid'));
  }
  const spilledPanels = [];
  const launch = document.querySelector('.launch-panel');
  if (launch) {
    const edge = launch.getBoundingClientRect().left;
    for (const step of document.querySelectorAll('.builder-steps > *'))
      if (step.getBoundingClientRect().right > edge + 0.5)
        spilledPanels.push('under the launch column: ' + step.className);
  }
  for (const panel of document.querySelectorAll('.launch-panel')) {
    const box = panel.getBoundingClientRect();
    for (const child of panel.children)
      if (!within(child.getBoundingClientRect(), box)) spilledPanels.push(child.className);
  }
  return {
    documentScroll: { scrollWidth: root.scrollWidth, innerWidth },
    contentScroll: content ? { scrollWidth: content.scrollWidth, clientWidth: content.clientWidth } : null,
    cutStats,
    hiddenButtons,
    spilledPanels,
  };
})()`;

async function faults(): Promise<ScreenFaults> {
  return page.evaluate<ScreenFaults>(measure);
}

const screens = [
  { name: 'builder', hash: 'builder', ready: '.builder-layout' },
  { name: 'runs', hash: 'runs', ready: '.page' },
  { name: 'runs-detail', hash: () => `runs/${studyId}`, ready: '.stat' },
  {
    name: 'results',
    hash: () => `results/${studyId}`,
    ready: '[data-testid="chart-flips"][data-filled="true"]',
  },
  { name: 'replay', hash: () => `replay/${studyId}`, ready: '.page' },
  { name: 'annotate', hash: 'annotate', ready: '.page' },
  { name: 'import', hash: 'import', ready: '.page' },
  { name: 'settings', hash: 'settings', ready: '.page' },
];

describe('every screen at 1024×700', () => {
  test.each(screens)(
    '$name: no sideways scroll, nothing cut or hidden',
    async ({ name, hash, ready }) => {
      if (!lab) throw new Error('The lab did not start.');
      await lab.open(typeof hash === 'string' ? hash : hash());
      await page.locator(ready).first().waitFor({ state: 'visible', timeout: 15_000 });
      await page.waitForTimeout(300);
      await saveScreenshot(page, `screen-layout-1024-${name}`);
      const found = await faults();
      expect(found.documentScroll.scrollWidth).toBeLessThanOrEqual(found.documentScroll.innerWidth);
      if (found.contentScroll)
        expect(found.contentScroll.scrollWidth).toBeLessThanOrEqual(
          found.contentScroll.clientWidth,
        );
      expect(found.cutStats).toEqual([]);
      expect(found.hiddenButtons).toEqual([]);
      expect(found.spilledPanels).toEqual([]);
    },
  );
});

describe('Runs and Replay at 1440×900', () => {
  test.each([
    { name: 'runs', hash: () => `runs/${studyId}`, ready: '.stat' },
    { name: 'replay', hash: () => `replay/${studyId}`, ready: '.page' },
  ])('$name uses the window and cuts no name', async ({ name, hash, ready }) => {
    if (!lab) throw new Error('The lab did not start.');
    await page.setViewportSize({ width: 1440, height: 900 });
    await lab.open(hash());
    await page.locator(ready).first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForTimeout(300);
    await saveScreenshot(page, `screen-layout-1440-${name}`);
    const found = await page.evaluate<{ used: number; cut: string[] }>(wideUse);
    expect(found.cut).toEqual([]);
    expect(found.used).toBeGreaterThan(0.97);
    await page.setViewportSize({ width: 1024, height: 700 });
  });
});
