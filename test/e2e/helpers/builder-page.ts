/**
 * The browser setup the builder tests share: a fresh `cuelab serve`, Chromium at 1280×800 in
 * the light scheme, the builder open and connected to the engine.
 */
import type { Page } from 'playwright-core';
import { launchBrowser, type LabBrowser } from './browser';
import { startEngine, type RunningEngine, type StartEngineOptions } from './engine';
import { waitConnected } from './lab-page';

/** An engine, a browser and a page on the builder; `close` stops them in order. */
export interface BuilderSession {
  readonly engine: RunningEngine;
  readonly browser: LabBrowser;
  readonly page: Page;
  close(): Promise<void>;
}

/** Starts the engine (with `options`), opens Chromium on `#/builder` and waits to connect. */
export async function openBuilderPage(options: StartEngineOptions = {}): Promise<BuilderSession> {
  const engine = await startEngine(options);
  let browser: LabBrowser | undefined;
  try {
    browser = await launchBrowser({ width: 1280, height: 800 });
    const page = await browser.context.newPage();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${engine.url}#/builder`);
    await waitConnected(page);
    const opened = browser;
    return {
      engine,
      browser: opened,
      page,
      close: async () => {
        await opened.close();
        await engine.stop();
      },
    };
  } catch (error) {
    await browser?.close();
    await engine.stop();
    throw error;
  }
}
