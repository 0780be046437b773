/**
 * Small helpers for driving the lab's page: wait for the engine connection, read a numeric
 * data attribute, wait until one moves, and save a screenshot without a hover tooltip in it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from './engine';

/** Where every e2e screenshot goes. */
export const screenshotDir = join(repoRoot, 'test-results');

/** Waits until the indicator says the engine is connected. */
export async function waitConnected(page: Page, timeout = 15_000): Promise<void> {
  await page
    .locator('[data-testid="engine-status"][data-state="connected"]')
    .waitFor({ state: 'visible', timeout });
}

/** Saves `test-results/<name>.png` with the pointer parked off the frame. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.mouse.move(viewport.width - 1, viewport.height - 1);
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** A data attribute as a number (NaN when absent). */
export async function numberAttribute(locator: Locator, name: string): Promise<number> {
  return Number(await locator.getAttribute(name));
}

/** Polls until `predicate` holds for the attribute's number; returns that number. */
export async function waitForNumber(
  locator: Locator,
  name: string,
  predicate: (value: number) => boolean,
  timeoutMs: number,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = NaN;
  while (Date.now() < deadline) {
    last = await numberAttribute(locator, name).catch(() => NaN);
    if (predicate(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} stayed at ${last} for ${timeoutMs} ms`);
}

/** Sets the page's theme through the lab's own toggle (Ctrl+Shift+L) until it is `theme`. */
export async function useTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const html = page.locator('html');
  if ((await html.getAttribute('data-theme')) !== theme) {
    await page.keyboard.press('Control+Shift+KeyL');
  }
  await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
}

/** Opens the Runs screen on one study and waits for its detail panel. */
export async function openStudyDetail(page: Page, engineUrl: string, studyId: string) {
  await page.goto(`${engineUrl}#/runs/${encodeURIComponent(studyId)}`);
  await waitConnected(page);
  const detail = page.getByTestId('study-detail');
  await detail.waitFor({ state: 'visible', timeout: 15_000 });
  return detail;
}
