/**
 * Settings' Docker hosts panel in Chromium against a real engine: this machine's engine, a second
 * dockerd started by the test and added through the form (up), a host nobody listens on (down,
 * with the problem), an ssh host whose key is not in known_hosts (down, saying how to add it),
 * and removing one. The same list `cuelab env hosts` prints.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dockerForTest } from '../helpers/docker';
import { startSecondDocker, type SecondDocker } from '../helpers/second-docker';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { startEngine, type RunningEngine } from './helpers/engine';
import { saveScreenshot, waitConnected } from './helpers/lab-page';

let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;
let second: SecondDocker | null = null;
let sshd: TestSshd | null = null;
let page: Page;

beforeAll(async () => {
  if (!(await dockerForTest())) return;
  second = await startSecondDocker();
  if (second) sshd = await startSshd(`unix://${second.root}/docker.sock`);
  // An empty known_hosts: the engine must refuse the test sshd's host key.
  const knownHosts = join(second?.root ?? tmpdir(), 'known_hosts_e2e');
  writeFileSync(knownHosts, '');
  engine = await startEngine({ env: { CUELAB_SSH_KNOWN_HOSTS: knownHosts } });
  browser = await launchBrowser({ width: 1280, height: 900 });
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  await sshd?.dispose();
  await second?.dispose();
}, 60_000);

async function addHost(id: string, url: string, max: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a Docker host' });
  await form.getByLabel('Name').fill(id);
  await form.getByLabel('Address').fill(url);
  await form.getByLabel('Max containers').fill(max);
  await form.getByRole('button', { name: 'Add host' }).click();
}

describe('Settings: Docker hosts', () => {
  test('adds a second engine and a dead host, shows their state, removes one', async (context) => {
    if (!engine || !second) context.skip('needs Docker and root for a second dockerd');
    await page.goto(`${engine!.url}#/settings`);
    await waitConnected(page);
    const panel = page.getByTestId('hosts-panel');
    const local = panel.getByTestId('host-local');
    await expect.poll(() => local.textContent(), { timeout: 15_000 }).toContain('up');

    await addHost('second', second!.url, '3');
    const remote = panel.getByTestId('host-second');
    await remote.waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => remote.textContent()).toContain('up');
    expect(await remote.textContent()).toContain('copied on first rep');

    await addHost('gone', 'tcp://127.0.0.1:9', '2');
    const gone = panel.getByTestId('host-gone');
    await gone.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await gone.textContent()).toContain('down');
    expect(await panel.getByTestId('host-gone-problem').textContent()).toContain(
      'refuses connections',
    );
    if (sshd) {
      await addHost('stranger', sshd.url, '2');
      const stranger = panel.getByTestId('host-stranger');
      await stranger.waitFor({ state: 'visible', timeout: 15_000 });
      await expect.poll(() => stranger.textContent(), { timeout: 15_000 }).toContain('down');
      const problem = await panel.getByTestId('host-stranger-problem').textContent();
      expect(problem).toContain('is not in');
      expect(problem).toContain(`ssh-keyscan -p ${sshd.port} 127.0.0.1`);
    }
    await saveScreenshot(page, 'settings-docker-hosts');

    await gone.getByRole('button', { name: 'Remove' }).click();
    await gone.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('button', { name: 'Add host' }).waitFor({ state: 'visible' });
    expect(await panel.getByTestId('host-second').count()).toBe(1);
  });
});
