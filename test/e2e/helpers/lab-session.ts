/**
 * The setup the screens' e2e tests share: a real `cuelab serve` on a fresh workspace, Chromium
 * at a viewport, and a page on one of the lab's screens, connected to that engine. Also a way to
 * hold the engine's answer to one method back from the page while the engine does the work.
 */
import type { Page, Route } from 'playwright-core';
import { launchBrowser, type LabBrowser } from './browser';
import { startEngine, type RunningEngine } from './engine';
import { waitConnected } from './lab-page';

/** An engine, a browser and a page on the lab. */
export interface LabSession {
  readonly engine: RunningEngine;
  readonly browser: LabBrowser;
  readonly page: Page;
  /** Opens the screen at `hash` ("#/import") and waits until the page is connected. */
  goto(hash: string): Promise<void>;
  /** Closes the browser and stops the engine (removing its workspace). */
  close(): Promise<void>;
}

/** Starts the engine and the browser and opens `hash` at `viewport`. */
export async function openLabSession(
  hash: string,
  viewport: { width: number; height: number },
): Promise<LabSession> {
  const engine = await startEngine();
  let browser: LabBrowser | undefined;
  try {
    browser = await launchBrowser(viewport);
    const page = await browser.context.newPage();
    const opened = browser;
    const session: LabSession = {
      engine,
      browser: opened,
      page,
      goto: async (to) => {
        await page.goto(`${engine.url.replace(/#.*$/, '')}${to}`);
        await waitConnected(page);
      },
      close: async () => {
        await opened.close();
        await engine.stop();
      },
    };
    await session.goto(hash);
    return session;
  } catch (error) {
    await browser?.close();
    await engine.stop();
    throw error;
  }
}

/**
 * Holds the engine's answer to `method` from `page` until `release` is called: the request
 * goes on to the engine at once (which does the work and publishes its progress); only its
 * answer waits.
 */
export async function holdAnswer(
  page: Page,
  method: string,
): Promise<{ release: () => Promise<void> }> {
  let held: Promise<void> = Promise.resolve();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/${method}`, async (route: Route) => {
    const response = await route.fetch();
    // Each request held is answered on release; one the page no longer waits for (Playwright
    // says it is already handled) needs no answer.
    const answered = released.then(() => route.fulfill({ response }).catch(() => undefined));
    held = Promise.all([held, answered]).then(() => undefined);
    await answered;
  });
  return {
    release: async () => {
      release();
      await held;
      await page.unroute(`**/api/${method}`);
    },
  };
}
