/**
 * The Electron shell end to end: launch the built app, wait until the window reports a
 * connected engine, and check that quitting stops the engine. Needs the Electron binary,
 * which downloads on first use on a machine with internet; without it the test is skipped
 * (the renderer itself is covered by the Chromium tests against `cuelab serve`).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { _electron } from 'playwright-core';
import { expect, it } from 'vitest';
import type { EngineChange } from '../../src/shared/native-bridge';

const root = resolve(__dirname, '../..');
const appEntry = join(root, 'out/main/app.js');

/**
 * The Electron executable, found the way `require('electron')` finds it but without its
 * side effect: when the binary is missing, `require('electron')` tries to download it.
 */
function installedElectron(): string | null {
  const electronDir = dirname(createRequire(__filename).resolve('electron/package.json'));
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(electronDir, 'dist');
  const executable = join(distDir, readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : null;
}

function whyNotRunnable(executable: string | null): string | null {
  if (executable === null) {
    return 'the Electron binary is not installed, so the shell window test was not run';
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'no display (run under xvfb-run), so the shell window test was not run';
  }
  if (!existsSync(appEntry)) return 'out/main/app.js is not built (run npm run build)';
  return null;
}

const electronPath = installedElectron();
const skipReason = whyNotRunnable(electronPath);

it('opens the window, which connects to the supervised engine; quitting stops it', async (context) => {
  if (skipReason !== null || electronPath === null) {
    const reason = skipReason ?? 'no Electron executable';
    console.log(`Skipped: ${reason}.`);
    context.skip(reason);
    return;
  }
  const workspace = mkdtempSync(join(tmpdir(), 'cuelab-electron-'));
  const app = await _electron.launch({
    executablePath: electronPath,
    args: [appEntry],
    cwd: root,
    env: { ...process.env, CUELAB_WORKSPACE: workspace },
  });
  let closed = false;
  try {
    const page = await app.firstWindow();
    await page
      .locator('[data-testid="engine-status"][data-state="connected"]')
      .waitFor({ timeout: 60_000 });

    // The page has the narrow bridge and nothing of Node.
    const surface = await page.evaluate(() => ({
      bridge: Object.keys(window.cuelab ?? {}).sort(),
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
    }));
    expect(surface).toEqual({
      bridge: ['getEngine', 'onEngineChange', 'openExternal', 'openFile', 'saveFile', 'shell'],
      require: 'undefined',
      process: 'undefined',
    });
    const engine: EngineChange = await page.evaluate(() => window.cuelab!.getEngine());
    const health = new URL('/api/health', engine.address.baseUrl);
    const headers = { authorization: `Bearer ${engine.address.token}` };
    expect((await fetch(health, { headers })).status).toBe(200);

    // before-quit waits for the engine, so once the app is gone nothing answers there.
    await app.close();
    closed = true;
    await expect(fetch(health, { headers })).rejects.toThrow();
  } finally {
    if (!closed) await app.close();
    rmSync(workspace, { recursive: true, force: true });
  }
});
