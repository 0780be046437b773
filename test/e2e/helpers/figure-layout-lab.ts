/**
 * The lab the layout tests drive: results files imported into a fresh workspace (one study
 * each, named after its key), a real `cuelab serve` on it and Chromium at a viewport.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type LabBrowser } from './browser';
import { assertBuilt, startEngine, type RunningEngine } from './engine';
import { importStudy } from './results-fixture';

/** A running lab and the ids of its imported studies. */
export interface LayoutLab {
  engine: RunningEngine;
  page: Page;
  /** Study id by the key its file was given. */
  studies: Record<string, string>;
  /** Opens `#/<path>` and waits for the engine connection. */
  open: (path: string) => Promise<void>;
  close: () => Promise<void>;
}

/** Imports `files` (key → CSV text, study name `name(key)`), starts the engine and a browser. */
export async function openLayoutLab(
  files: Record<string, string>,
  viewport: { width: number; height: number },
  colorScheme: 'light' | 'dark' = 'light',
  name: (key: string) => string = (key) => `Layout ${key}`,
): Promise<LayoutLab> {
  assertBuilt();
  const folder = mkdtempSync(join(tmpdir(), 'cuelab-e2e-layout-'));
  let engine: RunningEngine | undefined;
  let browser: LabBrowser | undefined;
  const close = async () => {
    await browser?.close();
    await engine?.stop();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const workspace = join(folder, 'workspace');
    const studies: Record<string, string> = {};
    for (const [key, text] of Object.entries(files)) {
      writeFileSync(join(folder, `${key}.csv`), text);
      studies[key] = importStudy(workspace, join(folder, `${key}.csv`), name(key));
    }
    const running = await startEngine({ workspace });
    engine = running;
    browser = await launchBrowser(viewport);
    const page = await browser.context.newPage();
    await page.emulateMedia({ colorScheme });
    const open = async (path: string) => {
      await page.goto(`${running.url}#/${path}`);
      await page
        .locator('[data-testid="engine-status"][data-state="connected"]')
        .waitFor({ state: 'visible', timeout: 15_000 });
    };
    return { engine: running, page, studies, open, close };
  } catch (error) {
    await close();
    throw error;
  }
}
