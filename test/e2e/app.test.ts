/**
 * The app frame in Chromium against a real `cuelab serve` on a fresh workspace: connection
 * from the printed URL, the token leaving the address bar, every section reachable by click
 * and shortcut, reload, themes, and the screen for a page opened without a token.
 * Screenshots land in test-results/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { repoRoot, startEngine, type RunningEngine } from './helpers/engine';

const screenshots = join(repoRoot, 'test-results');
const sectionNames = ['Builder', 'Runs', 'Results', 'Replay', 'Settings'] as const;

let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;
let page: Page;

function running(): RunningEngine {
  if (!engine) throw new Error('The engine did not start.');
  return engine;
}

function openBrowser(): LabBrowser {
  if (!browser) throw new Error('Chromium did not start.');
  return browser;
}

async function screenshot(name: string): Promise<void> {
  // Move the pointer off the frame so no hover tooltip is captured.
  await page.mouse.move(1279, 799);
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

async function expectConnected(): Promise<void> {
  await page
    .locator('[data-testid="engine-status"][data-state="connected"]')
    .waitFor({ state: 'visible', timeout: 15_000 });
}

async function expectHeading(name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ state: 'visible' });
}

function nav() {
  return page.getByRole('navigation', { name: 'Sections' });
}

async function theme(): Promise<string | null> {
  return page.locator('html').getAttribute('data-theme');
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  engine = await startEngine();
  browser = await launchBrowser({ width: 1280, height: 800 });
  page = await browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
});

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
});

describe('app frame against a real engine', () => {
  test('connects from the printed URL and takes the token out of the address bar', async () => {
    const { url, address } = running();
    await page.goto(url);
    await expectConnected();
    expect(page.url()).not.toContain(address.token);
    expect(page.url()).not.toContain('token=');
    await expectHeading('Builder');
    expect(await theme()).toBe('light');
  });

  test('the indicator tooltip names the engine version and workspace', async () => {
    const status = page.getByTestId('engine-status');
    await status.hover();
    const tooltip = page.getByRole('tooltip');
    await tooltip.waitFor({ state: 'visible' });
    const text = await tooltip.innerText();
    expect(text).toContain(running().workspace);
    expect(text).toMatch(/CueLab \d+\.\d+\.\d+/);
    expect(text).not.toContain(running().address.token);
  });

  test('every section opens from the navigation and shows its heading', async () => {
    for (const name of sectionNames) {
      await nav().getByRole('link', { name, exact: true }).click();
      await expectHeading(name);
      expect(new URL(page.url()).hash).toBe(`#/${name.toLowerCase()}`);
      await expect(
        nav().getByRole('link', { name, exact: true }).getAttribute('aria-current'),
      ).resolves.toBe('page');
      await screenshot(`section-${name.toLowerCase()}-light`);
    }
  });

  test('Runs shows the empty state for a fresh workspace', async () => {
    await nav().getByRole('link', { name: 'Runs', exact: true }).click();
    await page.getByRole('heading', { name: 'No studies yet' }).waitFor({ state: 'visible' });
  });

  test('Settings shows the workspace, its database and Docker status', async () => {
    await nav().getByRole('link', { name: 'Settings', exact: true }).click();
    await expectHeading('Settings');
    const main = page.getByRole('main');
    await main
      .getByText(running().workspace, { exact: true })
      .first()
      .waitFor({ state: 'visible' });
    await main.getByText(/^version \d+/).waitFor({ state: 'visible' });
    await main.getByText(/^(Available|Unavailable)$/).waitFor({ state: 'visible' });
  });

  test('Ctrl+1..5 switch sections', async () => {
    for (const [index, name] of sectionNames.entries()) {
      await page.keyboard.press(`Control+Digit${index + 1}`);
      await expectHeading(name);
    }
  });

  test('a reload keeps the connection and the section', async () => {
    await page.keyboard.press('Control+Digit3');
    await expectHeading('Results');
    await page.reload();
    await expectConnected();
    await expectHeading('Results');
    expect(page.url()).not.toContain('token=');
  });

  test('light and dark themes; the choice survives a reload', async () => {
    await page.keyboard.press('Control+Digit1');
    await expectHeading('Builder');
    expect(await theme()).toBe('light');
    await screenshot('app-frame-light');

    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await theme()).toBe('dark');
    await page.reload();
    await expectConnected();
    expect(await theme()).toBe('dark');
    await screenshot('app-frame-dark');
    for (const [index, name] of sectionNames.entries()) {
      await page.keyboard.press(`Control+Digit${index + 1}`);
      await expectHeading(name);
      await screenshot(`section-${name.toLowerCase()}-dark`);
    }

    await page.keyboard.press('Control+Shift+KeyL');
    expect(await theme()).toBe('light');
  });

  test('a page opened without a token says how to open the lab', async () => {
    const bare = await openBrowser().context.newPage();
    try {
      await bare.goto(running().address.baseUrl);
      await bare
        .getByRole('heading', { name: 'Open the lab from its engine' })
        .waitFor({ state: 'visible' });
      await bare.getByText('npx cuelab serve').waitFor({ state: 'visible' });
      await bare.mouse.move(1279, 799);
      await bare.screenshot({ path: join(screenshots, 'open-lab.png') });
    } finally {
      await bare.close();
    }
  });
});

describe('an engine without Docker that then goes away', () => {
  let dockerless: RunningEngine | undefined;

  afterAll(async () => {
    await dockerless?.stop();
  });

  test('Settings shows the Docker fix; the indicator and a banner report the lost engine', async () => {
    dockerless = await startEngine({
      env: { DOCKER_HOST: 'unix:///nonexistent/cuelab-e2e/docker.sock' },
    });
    const tab = await openBrowser().context.newPage();
    try {
      await tab.goto(`${dockerless.url}#/settings`);
      await tab
        .locator('[data-testid="engine-status"][data-state="connected"]')
        .waitFor({ state: 'visible', timeout: 15_000 });
      await tab.getByText('Unavailable', { exact: true }).waitFor({ state: 'visible' });
      const fix = tab.locator('.panel pre code');
      await fix.waitFor({ state: 'visible' });
      expect((await fix.innerText()).length).toBeGreaterThan(0);

      await dockerless.stop();
      await tab
        .locator('[data-testid="engine-status"][data-state="disconnected"]')
        .waitFor({ state: 'visible', timeout: 15_000 });
      await tab.getByRole('alert').getByText('Lost the engine').waitFor({ state: 'visible' });
      await tab.mouse.move(1279, 799);
      await tab.screenshot({ path: join(screenshots, 'engine-lost-docker-missing.png') });
    } finally {
      await tab.close();
    }
  });
});

describe('inside the desktop shell (window.cuelab stood in for by a script)', () => {
  let restarted: RunningEngine | undefined;

  afterAll(async () => {
    await restarted?.stop();
  });

  test('takes the engine from the bridge and follows a restart', async () => {
    restarted = await startEngine();
    const tab = await openBrowser().context.newPage();
    try {
      // The preload's surface, as the page sees it; `emitEngineChange` plays the shell.
      await tab.addInitScript((address) => {
        const listeners: ((change: unknown) => void)[] = [];
        const target = window as unknown as Record<string, unknown>;
        target.cuelab = {
          shell: 'electron',
          getEngine: () => Promise.resolve({ address, restarts: 0 }),
          onEngineChange: (listener: (change: unknown) => void) => {
            listeners.push(listener);
            return () => undefined;
          },
        };
        target.emitEngineChange = (change: unknown) => listeners.forEach((l) => l(change));
      }, running().address);
      // No token in the URL: the bridge alone says where the engine is.
      await tab.goto(`${running().address.baseUrl}#/settings`);
      const status = tab.getByTestId('engine-status');
      await tab
        .locator('[data-testid="engine-status"][data-state="connected"]')
        .waitFor({ state: 'visible', timeout: 15_000 });
      const main = tab.getByRole('main');
      await main
        .getByText(running().workspace, { exact: true })
        .first()
        .waitFor({ state: 'visible' });

      const next = { address: restarted.address, restarts: 1, reason: 'exited with code 1' };
      await tab.evaluate((change) => {
        (window as unknown as { emitEngineChange: (c: unknown) => void }).emitEngineChange(change);
      }, next);
      await status.getByText('engine restarted (1)').waitFor({ state: 'visible' });
      await tab
        .locator('[data-testid="engine-status"][data-state="connected"]')
        .waitFor({ state: 'visible', timeout: 15_000 });
      // Settings asks the new engine again: its workspace replaces the old one.
      await main
        .getByText(restarted.workspace, { exact: true })
        .first()
        .waitFor({ state: 'visible' });
      await status.hover();
      await tab.getByRole('tooltip').getByText(restarted.workspace).waitFor({ state: 'visible' });
      await tab.screenshot({ path: join(screenshots, 'engine-restarted-tooltip.png') });
    } finally {
      await tab.close();
    }
  });
});
