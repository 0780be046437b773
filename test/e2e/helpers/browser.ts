/**
 * Launches the system Chromium through playwright-core with a fresh profile. Never
 * `npx playwright install`: the tests use the browser the machine already has.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const defaultChromium = '/usr/bin/chromium';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium to drive: `CHROMIUM_PATH`, else /usr/bin/chromium; fails saying how to get one. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is ${fromEnv}, which does not exist.`);
    return fromEnv;
  }
  if (existsSync(defaultChromium)) return defaultChromium;
  throw new Error(
    `No Chromium found at ${defaultChromium}. Install it with: apt-get install -y chromium ` +
      '(or set CHROMIUM_PATH to a Chromium or Chrome binary).',
  );
}

/** A browser with its own temporary profile. */
export interface LabBrowser {
  /** The persistent context (one profile); open pages with `context.newPage()`. */
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close: () => Promise<void>;
}

/** Launches Chromium headless at the given viewport, with a fresh user-data dir and reduced motion. */
export async function launchBrowser(
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<LabBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'cuelab-e2e-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(),
      headless: true,
      args: chromiumArgs,
      viewport,
      // No pulsing dots or fading tooltips: screenshots show a settled frame.
      reducedMotion: 'reduce',
    });
    return {
      context,
      close: async () => {
        await context.close().catch(() => undefined);
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
