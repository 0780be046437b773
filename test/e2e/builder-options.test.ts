/**
 * The builder in Chromium against a real `cuelab serve`: a spec with provider options per judge
 * (App. R: adaptive / extended thinking, reasoning effort, max_tokens), safety settings (hard
 * stop, max turns, cost cap) and a mitigated control opens, is saved back unchanged, and each
 * option is edited on screen and lands in the saved file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseStudySpec } from '../../src/main/engine/runner/spec-file';
import type { StudySpec } from '../../src/shared/study-spec';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { setNumber } from './helpers/builder';
import { startEngine, type RunningEngine } from './helpers/engine';
import { saveScreenshot, waitConnected } from './helpers/lab-page';

const specPath = join(tmpdir(), `cuelab-e2e-options-${process.pid}.cuelab.json`);
const loaded = {
  name: 'Options in the builder',
  suite: 'cuelab-mini',
  items: { datasets: ['mini-filesystem'], limit: 2 },
  judges: [
    {
      ...{ id: 'opus', provider: 'anthropic', model: 'claude-opus-4-7' },
      ...{ thinking: { type: 'adaptive' }, maxTokens: 16000, timeoutMs: 90000 },
    },
    { id: 'gpt', provider: 'openai', model: 'gpt-5', reasoningEffort: 'high', concurrency: 2 },
  ],
  safety: { hardStop: 120, maxTurns: 60 },
  costCapUsd: 12.5,
  gradedFlipThreshold: 15,
  arms: { mitigations: [[], [{ kind: 'builtin', id: 'guard' }]], mitigatedControl: true },
};

let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;
let page: Page;

async function saveSpec(): Promise<StudySpec> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save spec' }).click(),
  ]);
  const path = join(tmpdir(), `cuelab-e2e-options-saved-${process.pid}.cuelab.json`);
  await download.saveAs(path);
  return parseStudySpec(readFileSync(path, 'utf8'), path);
}

beforeAll(async () => {
  engine = await startEngine();
  browser = await launchBrowser({ width: 1280, height: 1000 });
  page = await browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${engine.url}#/builder`);
  await waitConnected(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
});

describe('provider options and safety settings in the builder', () => {
  test('a loaded spec is saved back with every option unchanged', async () => {
    writeFileSync(specPath, JSON.stringify(loaded));
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Open spec…' }).click(),
    ]);
    await chooser.setFiles(specPath);
    const opus = page.getByRole('group', { name: 'Judge 1' });
    await expect(opus.getByRole('combobox', { name: 'Thinking' }).inputValue()).resolves.toBe(
      'adaptive',
    );
    const saved = await saveSpec();
    expect(saved).toEqual(parseStudySpec(JSON.stringify(loaded), specPath));
  });

  test('each option is edited on screen and lands in the saved spec', async () => {
    const opus = page.getByRole('group', { name: 'Judge 1' });
    await opus.getByRole('combobox', { name: 'Thinking' }).selectOption('enabled');
    await opus.getByRole('spinbutton', { name: 'Thinking budget' }).fill('4096');
    await opus.getByRole('spinbutton', { name: 'Max tokens' }).fill('20000');
    const gpt = page.getByRole('group', { name: 'Judge 2' });
    await gpt.getByRole('combobox', { name: 'Reasoning effort' }).selectOption('low');
    await setNumber(page, 'Hard stop', 80);
    await page.getByRole('spinbutton', { name: 'Max turns', exact: true }).fill('');
    await setNumber(page, 'Cost cap ($)', 3);
    await page.getByText('Judges', { exact: true }).first().scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'builder-options-light');
    await gpt.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'builder-options-judges-light');
    const saved = await saveSpec();
    expect(saved.judges[0]).toMatchObject({
      thinking: { type: 'enabled', budgetTokens: 4096 },
      maxTokens: 20000,
      timeoutMs: 90000,
    });
    expect(saved.judges[1]).toMatchObject({ reasoningEffort: 'low', concurrency: 2 });
    expect(saved.safety).toEqual({ hardStop: 80 });
    expect(saved.costCapUsd).toBe(3);
    expect(saved.arms.mitigatedControl).toBe(true);
    expect(saved.gradedFlipThreshold).toBe(15);
  });
});
