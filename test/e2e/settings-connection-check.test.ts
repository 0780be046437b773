/**
 * Settings → Connection check in Chromium against a real `cuelab serve` and two fake
 * OpenAI-compatible servers: one that answers in Hermes tags with `<think>` reasoning, one that
 * never calls a tool. The panel shows what the CLI's check reports, the result is stored, and a
 * study against the failed endpoint refuses to launch with the check's reason.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabClient } from '../../src/shared/lab-client';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { startEngine, type RunningEngine } from './helpers/engine';
import { saveScreenshot, waitConnected } from './helpers/lab-page';

let hermes: FakeModelServer;
let mute: FakeModelServer;
let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;

beforeAll(async () => {
  hermes = await startFakeModelServer({ openaiDialect: 'hermes', latencyMs: 20 });
  hermes.handle('openai', () => reply.toolCall('echo', { text: 'ping' }));
  mute = await startFakeModelServer();
  mute.handle('openai', () => reply.text('I would rather not use tools.'));
  engine = await startEngine();
  browser = await launchBrowser({ width: 1024, height: 700 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  await Promise.all([hermes?.close(), mute?.close()]);
});

async function runCheck(page: Page, model: string, baseUrl: string) {
  await page.getByTestId('check-provider').selectOption('openai-compatible');
  await page.getByTestId('check-model').fill(model);
  await page.getByTestId('check-base-url').fill(baseUrl);
  await page.getByTestId('check-run').click();
  const row = page.getByTestId('provider-check').filter({ hasText: model });
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  return row;
}

describe('Settings: connection check', () => {
  it('checks an endpoint, shows dialect, reasoning, caching, latency and price, and a failed one blocks launch', async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${engine!.url}#/settings`);
    await waitConnected(page);
    const panel = page.getByTestId('connection-check-panel');
    await panel.waitFor({ state: 'visible' });
    await expect(panel.textContent()).resolves.toContain('No endpoint has been checked');

    const good = await runCheck(page, 'Qwen/Qwen3-235B-A22B', hermes.openaiUrl);
    expect(await good.getAttribute('data-ok')).toBe('true');
    const cells = await good.locator('td').allTextContents();
    expect(cells.slice(0, 5)).toEqual([
      'passed',
      'yes (hermes)',
      'yes',
      'off',
      expect.stringMatching(/^\d+ ms$/),
    ]);
    expect(cells[5]).toBe('$0 in, $0 out per Mtok');
    // The check really offered the echo tool to the server the person named.
    const sent = hermes.requests('openai')[0]!.body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['echo']);

    const bad = await runCheck(page, 'mute-model', mute.openaiUrl);
    expect(await bad.getAttribute('data-ok')).toBe('false');
    expect(await bad.textContent()).toContain('answered without calling the echo tool');
    await page.getByTestId('connection-check-panel').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-connection-check-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('connection-check-panel').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-connection-check-1440');

    // Stored: a fresh engine client lists both, and a study against the failed one is refused.
    const client = createLabClient(engine!.address);
    const listed = await client.listProviderChecks({});
    expect(listed.ok && listed.value.map((check) => [check.model, check.ok])).toEqual([
      ['mute-model', false],
      ['Qwen/Qwen3-235B-A22B', true],
    ]);
    const created = await client.createStudy({
      spec: {
        name: 'against the mute endpoint',
        suite: 'cuelab-mini',
        judges: [
          {
            id: 'mute-model',
            provider: 'openai-compatible',
            model: 'mute-model',
            baseUrl: mute.openaiUrl,
          },
        ],
      },
      trustedEndpoints: [mute.openaiUrl],
    });
    expect(created.ok).toBe(false);
    if (!created.ok)
      expect(created.error.message).toMatch(
        /the connection check of openai-compatible mute-model at .* failed .*Settings → Check/,
      );
  }, 90_000);
});
