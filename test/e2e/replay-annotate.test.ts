/**
 * Replay and Annotate in Chromium against a real `cuelab serve`. Before the engine starts, a
 * small study runs for real (`cuelab run`: cuelab-mini, 4 items, the synthetic
 * deferential-frontier judge in Docker, seed 17, which gives harmful flips) and its flips are
 * labelled by the diff classifier. Then: open a flipped pair, find the divergence rule, label
 * every flip blind as two annotators with the keyboard, and watch Table 10 update. Last, the
 * mechanism figure fills, and the study's bundle opens and replays on a second engine that has
 * no Docker.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { maxInlineBundleBase64 } from '../../src/shared/transport-limits';
import { dockerForTest } from '../helpers/docker';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { assertBuilt, repoRoot, startEngine, type RunningEngine } from './helpers/engine';

const screenshots = join(repoRoot, 'test-results');
const spec = `name: Replay e2e
suite: cuelab-mini
items: { datasets: [mini-filesystem, mini-database, mini-code], limit: 4 }
judges:
  - { id: deferential, provider: synthetic, model: synthetic, persona: deferential-frontier }
arms:
  cues: [{ kind: preset, preset: strong }]
direction: opposite
reps: 3
seed: 17
concurrency: { total: 2, containers: 2 }
`;

let folder = '';
let studyId = '';
let dockerMissing = false;
let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;
let page: Page;

/** Runs `node bin/cuelab.js ARGS` on the workspace; resolves with what it printed. */
function cuelab(workspace: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'cuelab.js'), ...args], {
      cwd: repoRoot,
      env: { ...process.env, CUELAB_WORKSPACE: workspace },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`cuelab ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

function skipWithoutDocker(context: TestContext): boolean {
  if (dockerMissing) context.skip('Docker is not running here (CUELAB_REQUIRE_DOCKER=1 fails)');
  return dockerMissing;
}

async function screenshot(name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  const button = page.getByRole('button', { name: `Switch to ${theme} theme` });
  if (await button.isVisible()) await button.click();
  await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
}

beforeAll(async () => {
  assertBuilt();
  // Throws (the tests fail) when CUELAB_REQUIRE_DOCKER=1 and Docker is absent.
  if (!(await dockerForTest())) {
    dockerMissing = true;
    return;
  }
  mkdirSync(screenshots, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), 'cuelab-e2e-replay-'));
  const workspace = join(folder, 'workspace');
  writeFileSync(join(folder, 'spec.yaml'), spec);
  // Same spec and seed, same study: with seed 17 the item-calibrated persona gives
  // 6 harmful flips and 3 helpful ones (lucky deference).
  const run = await cuelab(workspace, ['run', join(folder, 'spec.yaml')]);
  studyId = /Study ([0-9a-f-]{36})/.exec(run)?.[1] ?? '';
  if (!studyId) throw new Error(`cuelab run printed no study id:\n${run}`);
  const classified = await cuelab(workspace, ['classify', 'latest', '--diff-only']);
  expect(classified).toContain('9 flipped reps (6 harmful, 3 helpful)');
  engine = await startEngine({ workspace });
  browser = await launchBrowser({ width: 1280, height: 1200 });
  page = await browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('Replay and Annotate on a real study with flips', () => {
  test('lists the flips and opens a pair with the divergence marked', async (context) => {
    if (skipWithoutDocker(context)) return;
    await page.goto(`${engine!.url}#/replay/${studyId}`);
    const rows = page.getByTestId('flip-row');
    await rows.first().waitFor({ timeout: 15_000 });
    expect(await rows.count()).toBeGreaterThan(0);
    await expect.poll(() => rows.first().innerText()).toContain('simulated');
    await expect.poll(() => rows.first().innerText()).toMatch(/diff: /);
    // A flip diverges from its twin at a tool call, or (same calls) at the verdict; a twin
    // that itself disagreed with the uncued majority may not diverge at all. Open the flips in
    // turn and stay on the first that diverges at a tool call (else the last with a marker).
    let chosen: string | null = null;
    for (let index = 0; index < (await rows.count()); index += 1) {
      const row = rows.nth(index);
      const repId = await row.getAttribute('data-rep-id');
      await row.click();
      expect(new URL(page.url()).hash).toBe(`#/replay/${studyId}/${repId}`);
      const opened = page.locator(`[data-testid="flip-pair"][data-rep-id="${repId}"]`);
      await opened.waitFor({ timeout: 15_000 });
      const marker = opened.getByTestId('divergence-marker');
      if ((await marker.count()) === 0) continue;
      chosen = repId;
      const text = await marker.innerText();
      expect(text).toMatch(/Runs diverge here · row \d+|runs diverge at the verdict/);
      if (text.includes('here')) break;
    }
    if (!chosen) throw new Error('No flipped pair shows a divergence marker.');
    await page.locator(`[data-testid="flip-row"][data-rep-id="${chosen}"]`).click();
    const pair = page.locator(`[data-testid="flip-pair"][data-rep-id="${chosen}"]`);
    await pair.getByTestId('divergence-marker').waitFor({ state: 'attached' });
    await pair.getByText('Cued verdict', { exact: true }).waitFor();
    await pair.getByText(/pushes toward (FAIL|PASS)/).waitFor();
    // The trajectory is one click away.
    await pair.getByText('Agent trajectory and task').click();
    await expect.poll(() => page.getByTestId('trajectory-text').innerText()).not.toBe('');
    await pair.getByText('Agent trajectory and task').click();
    await screenshot('replay-light');
    await setTheme('dark');
    await screenshot('replay-dark');
    await setTheme('light');
  });

  test('labels every flip blind as ann-a, then ann-b, and agreement updates', async (context) => {
    if (skipWithoutDocker(context)) return;
    await page.goto(`${engine!.url}#/annotate/${studyId}`);
    const agreement = page.getByTestId('agreement');
    await agreement.getByText(/labelled flips/).waitFor({ timeout: 15_000 });
    const before = await agreement.innerText();
    expect(before).not.toContain('human:ann-a');

    const labelAll = async (name: string, keys: string[]) => {
      await page.getByTestId('annotator-name').fill(name);
      await page.getByTestId('annotator-start').click();
      const progress = page.getByTestId('annotate-progress');
      await progress.waitFor();
      const total = Number(/\/(\d+)/.exec(await progress.innerText())?.[1]);
      let submodeSeen = false;
      expect(total).toBeGreaterThan(0);
      for (let done = 0; done < total; done += 1) {
        await expect.poll(() => progress.innerText()).toBe(`${done}/${total} labelled`);
        await page.getByTestId('save-label').waitFor();
        // Blind: no classifier or annotator label is on screen.
        expect(await page.locator('.flip-labels, [data-testid="divergence-marker"]').count()).toBe(
          0,
        );
        const key = keys[done % keys.length] ?? '1';
        await page.keyboard.press(key);
        await page.locator('[data-testid^="label-"][aria-checked="true"]').waitFor();
        // The over-trust sub-mode toggle shows on a harmful flip labelled over-trust; the queue
        // also holds helpful flips, which have none, so the first harmful one is used.
        if (!submodeSeen) {
          await page.keyboard.press('s');
          const toggle = page.getByTestId('toggle-submode');
          if ((await toggle.count()) > 0) {
            await toggle.getByText('Deference').waitFor();
            await screenshot(`annotate-${name}-light`);
            submodeSeen = true;
          }
        }
        await page.keyboard.press('Enter');
      }
      await page.getByTestId('annotate-done').waitFor();
      expect(submodeSeen).toBe(true);
      await expect.poll(() => progress.innerText()).toBe(`${total}/${total} labelled`);
      await page.getByRole('button', { name: 'Change annotator' }).click();
    };

    await labelAll('ann-a', ['1']);
    await expect.poll(() => agreement.innerText()).toContain('κ vs human:ann-a');
    await labelAll('ann-b', ['1', '2']);
    await expect.poll(() => agreement.innerText()).toContain('κ vs human:ann-b');
    await expect
      .poll(() => agreement.innerText())
      .toMatch(/pairwise Cohen's κ human:ann-a–human:ann-b/);
    expect(await agreement.getByTestId('agreement-row').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'ann-a' }).waitFor();
    await page.getByRole('button', { name: 'ann-a' }).click();
    await page.getByTestId('annotate-done').waitFor();
    await screenshot('annotate-agreement-light');
    await setTheme('dark');
    await screenshot('annotate-agreement-dark');
    await page.getByRole('button', { name: 'Change annotator' }).click();
    await page.getByTestId('annotator-name').waitFor();
  });

  test('mechanism figure fills; the bundle replays on a second engine without Docker', async (context) => {
    if (skipWithoutDocker(context)) return;
    await page.goto(`${engine!.url}#/results/${studyId}`);
    const chart = page.locator('[data-testid="chart-mechanisms"][data-filled="true"]');
    await chart.waitFor({ timeout: 15_000 });
    expect(await chart.getAttribute('data-simulated')).toBe('true');
    await chart.locator('svg').getByText('SIMULATED: synthetic-judge data').waitFor();
    expect(await chart.getByTestId('mechanism-bar').count()).toBeGreaterThan(1);
    await chart.getByText('Over-trust', { exact: true }).waitFor();
    await page
      .locator('[data-testid="chart-mechanisms-helpful"][data-filled="true"]')
      .waitFor({ timeout: 15_000 });
    await chart.screenshot({ path: join(screenshots, 'chart-mechanisms-light.png') });

    await page.goto(`${engine!.url}#/replay/${studyId}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-bundle').click(),
    ]);
    const file = join(folder, download.suggestedFilename());
    await download.saveAs(file);
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(bytes.toString('latin1')).not.toContain('apiKey');
    expect(gunzipSync(bytes).toString('utf8')).not.toContain('apiKey');

    // The same study as a bundle past the old inline limit (stored, not compressed, and
    // padded with JSON whitespace): the window streams it rather than sending base64.
    const large = join(folder, 'large.cuelab-bundle.json.gz');
    const padding = ' '.repeat(2 * maxInlineBundleBase64);
    writeFileSync(large, gzipSync(`${gunzipSync(bytes).toString('utf8')}${padding}`, { level: 0 }));
    expect(readFileSync(large).length).toBeGreaterThan(2 * maxInlineBundleBase64);

    const offline = await startEngine({ env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    try {
      const other = await browser!.context.newPage();
      await other.goto(`${offline.url}#/replay`);
      const input = other.getByTestId('open-bundle-input');
      await input.setInputFiles(large);
      const status = other.getByTestId('bundle-status');
      await expect
        .poll(() => status.innerText(), { timeout: 15_000 })
        .toMatch(/^Opened Replay e2e: \d+ reps, \d+ labels$/);
      await expect.poll(() => new URL(other.url()).hash).toBe(`#/replay/${studyId}`);
      // The exported bundle: the study is already there, and Replace opens it over it.
      await input.setInputFiles(file);
      await expect.poll(() => status.innerText()).toContain('already in this workspace');
      await other.getByTestId('bundle-replace').click();
      await expect.poll(() => status.innerText()).toMatch(/^Opened Replay e2e/);

      const rows = other.getByTestId('flip-row');
      await rows.first().waitFor({ timeout: 15_000 });
      let shown = false;
      for (let index = 0; index < (await rows.count()) && !shown; index += 1) {
        const repId = await rows.nth(index).getAttribute('data-rep-id');
        await rows.nth(index).click();
        const pair = other.locator(`[data-testid="flip-pair"][data-rep-id="${repId}"]`);
        await pair.waitFor({ timeout: 15_000 });
        shown = (await pair.getByTestId('divergence-marker').count()) > 0;
      }
      expect(shown).toBe(true);
      await other.mouse.move(0, 0);
      await other.screenshot({
        path: join(screenshots, 'replay-bundle-opened.png'),
        fullPage: true,
      });
      await other.close();
    } finally {
      await offline.stop();
    }
  });
});
