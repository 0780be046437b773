/**
 * The setup the screens' e2e tests share: a real `cuelab serve` on a fresh workspace (or on one
 * the test filled first), Chromium at a viewport, and a page on one of the lab's screens,
 * connected to that engine. Also a way to hold the engine's answer to one method back from the
 * page while the engine does the work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { launchBrowser, type LabBrowser } from './browser';
import { assertBuilt, startEngine, type RunningEngine, type StartEngineOptions } from './engine';
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

/** A browser viewport in CSS pixels. */
type Viewport = { width: number; height: number };

/** Starts the engine (with `options`) and the browser and opens `hash` at `viewport`. */
export async function openLabSession(
  hash: string,
  viewport: Viewport,
  options: StartEngineOptions = {},
): Promise<LabSession> {
  const session = await sessionOn(await startEngine(options), viewport, 'light');
  try {
    await session.goto(hash);
    return session;
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** What `openWorkspaceSession` is given. */
export interface WorkspaceSessionOptions<T> {
  /** Names the temporary folder (`cuelab-e2e-NAME-…`). */
  name: string;
  viewport: Viewport;
  /** The page's colour scheme; light unless given. */
  colorScheme?: 'light' | 'dark';
  /**
   * Makes the workspace (`workspace`, not yet created) before the engine starts; `folder` is
   * the temporary folder around it, for whatever else the test writes (CSV files to import).
   * What it returns (a study id) is the session's `filled`.
   */
  fill: (workspace: string, folder: string) => T | Promise<T>;
  /** More for `startEngine` (its environment). */
  engine?: Omit<StartEngineOptions, 'workspace'>;
}

/** A lab session on a workspace the test filled before the engine started. */
export interface WorkspaceSession<T = void> extends LabSession {
  /** The temporary folder holding the workspace; removed on close. */
  readonly folder: string;
  /** What `fill` returned. */
  readonly filled: T;
}

/**
 * Fills a workspace in a temporary folder, starts the engine on it and Chromium at the
 * viewport; the page opens no screen until the test says which.
 */
export async function openWorkspaceSession<T>(
  options: WorkspaceSessionOptions<T>,
): Promise<WorkspaceSession<T>> {
  assertBuilt();
  const folder = mkdtempSync(join(tmpdir(), `cuelab-e2e-${options.name}-`));
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  try {
    const workspace = join(folder, 'workspace');
    const filled = await options.fill(workspace, folder);
    const engine = await startEngine({ ...options.engine, workspace });
    const session = await sessionOn(engine, options.viewport, options.colorScheme ?? 'light');
    return {
      ...session,
      folder,
      filled,
      close: async () => {
        await session.close();
        removeFolder();
      },
    };
  } catch (error) {
    removeFolder();
    throw error;
  }
}

/** Chromium at `viewport` with a page on `engine`'s lab; stops the engine should it fail. */
async function sessionOn(
  engine: RunningEngine,
  viewport: Viewport,
  colorScheme: 'light' | 'dark',
): Promise<LabSession> {
  let browser: LabBrowser | undefined;
  try {
    browser = await launchBrowser(viewport);
    const page = await browser.context.newPage();
    await page.emulateMedia({ colorScheme });
    const opened = browser;
    return {
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
