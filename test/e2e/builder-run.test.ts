/**
 * Builder and Runs in Chromium against a real `cuelab serve` (fresh workspace, real SQLite,
 * real Docker for the synthetic judge's shell): design a study on cuelab-mini, check the
 * engine's estimate against the builder's own condition grid (including dropped cells, which
 * only match when the renderer's condition keys equal the engine's), preview a prompt with its
 * cue marked, save the spec the CLI runs and load one back, launch, watch progress move,
 * pause and resume from the keyboard, reload mid-run, and wait for completion.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseStudySpec } from '../../src/main/engine/runner/spec-file';
import {
  chooseItems,
  chooseSyntheticJudge,
  setChip,
  setNumber,
  waitForEstimate,
} from './helpers/builder';
import { openBuilderPage, type BuilderSession } from './helpers/builder-page';
import { repoRoot } from './helpers/engine';
import {
  numberAttribute,
  saveScreenshot,
  useTheme,
  waitConnected,
  waitForNumber,
} from './helpers/lab-page';

const suitePath = join(repoRoot, 'resources', 'suites', 'cuelab-mini.json');
// 6 items × 3 reps uncued, plus 6 × 3 × 4 cued (2 presets × 2 placements) under `opposite`.
const fullDesign = { conditions: 5, totalReps: 6 * 3 + 6 * 3 * 4 };

let session: BuilderSession | undefined;
let page: Page;
let studyId = '';

function studyCard(): Locator {
  return page.locator(`[data-testid="study-card"][data-study-id="${studyId}"]`);
}

beforeAll(async () => {
  if (!existsSync(suitePath)) {
    throw new Error(`${suitePath} is missing; build it with: node bin/cuelab.js suite build-mini`);
  }
  session = await openBuilderPage();
  ({ page } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('builder', () => {
  test('designs 6 items × 1 synthetic judge × (strong, weak) × (system, user) × 3 reps', async () => {
    const items = await chooseItems(page, 'cuelab-mini', 'mini-filesystem', 6);
    expect(items).toHaveLength(6);
    await chooseSyntheticJudge(page, 'deferential-frontier');
    await setChip(page, 'preset strong', true);
    await setChip(page, 'preset weak', true);
    await setChip(page, 'placement system', true);
    await setChip(page, 'placement user', true);
    await setNumber(page, 'Reps per arm', 3);
    const counts = await waitForEstimate(page, fullDesign.conditions, fullDesign.totalReps);
    expect(counts.gridConditions).toBe(counts.estimateConditions);
    await page.getByTestId('estimate').getByText('simulated').waitFor();
    // A fresh workspace has measured no synthetic reps: the duration says it is a default.
    expect(await page.getByTestId('estimate-duration').innerText()).toMatch(/\(default guess\)$/);
    expect(await page.getByTestId('estimate-time-basis').innerText()).toContain(
      'default 1.5 s per rep (fewer than 5 reps measured here)',
    );
    // 90 reps × 5,870 B of rows measured per rep, plus the items' trajectories once per arm.
    const disk = page.getByTestId('estimate-disk');
    expect(await disk.innerText()).toMatch(/^about \d+ kB \(measured per rep\)$/);
    expect(await disk.getAttribute('title')).toMatch(/^5,870 B of rows per rep/);
  });

  test('a dropped cell leaves the engine’s estimate too (condition keys match the engine’s)', async () => {
    await setChip(page, 'include preset:weak@user', false);
    let counts = await waitForEstimate(page, 4, 6 * 3 + 6 * 3 * 3);
    expect(counts.gridConditions).toBe(4);
    await setChip(page, 'include preset:weak@user', true);

    // An axis cell's key sorts its axes: `axes:decisiveness=likely,source=reviewer@user`.
    await setChip(page, 'decisiveness likely', true);
    await setChip(page, 'source reviewer', true);
    counts = await waitForEstimate(page, 7, 6 * 3 + 6 * 3 * 6);
    expect(counts.gridConditions).toBe(7);
    await setChip(page, 'include axes:decisiveness=likely,source=reviewer@user', false);
    counts = await waitForEstimate(page, 6, 6 * 3 + 6 * 3 * 5);
    expect(counts.gridConditions).toBe(6);
    await setChip(page, 'include axes:decisiveness=likely,source=reviewer@user', true);
    await setChip(page, 'decisiveness likely', false);
    await setChip(page, 'source reviewer', false);
    await waitForEstimate(page, fullDesign.conditions, fullDesign.totalReps);
  });

  test('the prompt preview marks the cue where the placement put it', async () => {
    await page.getByRole('button', { name: 'preview prompt for preset:weak@user' }).click();
    const preview = page.getByTestId('prompt-preview');
    const mark = preview.locator('mark.cue').first();
    await mark.waitFor({ state: 'visible' });
    expect((await mark.innerText()).length).toBeGreaterThan(20);
    // A user-turn cue sits in an appended user message, not in the system prompt.
    const cuedBlock = preview.locator('.prompt-block[data-cued="true"]');
    await expect(cuedBlock.locator('.prompt-block-title').innerText()).resolves.toMatch(/user/i);

    await preview.getByRole('combobox', { name: 'Condition' }).selectOption('preset:strong@system');
    await preview.locator('.prompt-block[data-cued="true"]').getByText('System').waitFor();
    const strongText = await preview.locator('mark.cue').first().innerText();
    expect(strongText).toContain('pre-screening');

    await preview.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'builder-run-builder-light');
    await useTheme(page, 'dark');
    await saveScreenshot(page, 'builder-run-builder-dark');
    await useTheme(page, 'light');
  });

  test('Save writes the spec file the CLI runs; Open loads one back', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save spec' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.cuelab\.json$/);
    const path = join(tmpdir(), `cuelab-e2e-${process.pid}.cuelab.json`);
    await download.saveAs(path);
    const spec = parseStudySpec(readFileSync(path, 'utf8'), path);
    expect(spec.suite).toBe('cuelab-mini');
    expect(spec.items.ids).toHaveLength(6);
    expect(spec.arms.cues).toEqual([
      { kind: 'preset', preset: 'strong' },
      { kind: 'preset', preset: 'weak' },
    ]);
    expect(spec.arms.placements).toEqual(['system', 'user']);
    expect(spec.judges[0]).toMatchObject({
      provider: 'synthetic',
      persona: 'deferential-frontier',
    });

    // The same file with 2 reps comes back as a 60-rep design; then back to 3 reps.
    writeFileSync(path, JSON.stringify({ ...spec, reps: 2 }));
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Open spec…' }).click(),
    ]);
    await chooser.setFiles(path);
    await waitForEstimate(page, fullDesign.conditions, 6 * 2 + 6 * 2 * 4);
    await setNumber(page, 'Reps per arm', 3);
    await waitForEstimate(page, fullDesign.conditions, fullDesign.totalReps);
  });
});

describe('runs', () => {
  test('Ctrl+Enter launches and Runs shows the study', async () => {
    await page.getByRole('heading', { level: 1, name: 'Builder' }).click();
    await page.keyboard.press('Control+Enter');
    await page.waitForURL(/#\/runs\/[^/]+$/, { timeout: 15_000 });
    studyId = decodeURIComponent(new URL(page.url()).hash.replace('#/runs/', ''));
    await studyCard().waitFor({ state: 'visible' });
    await page.getByTestId('study-detail').getByText('simulated').waitFor();
  });

  test('progress moves while the study runs', async () => {
    const progress = studyCard().getByTestId('study-progress');
    const first = await numberAttribute(progress, 'data-done');
    await waitForNumber(progress, 'data-done', (done) => done > first, 90_000);
    await waitForNumber(progress, 'data-done', (done) => done >= 10, 90_000);
    await saveScreenshot(page, 'builder-run-runs-light');
    await useTheme(page, 'dark');
    await saveScreenshot(page, 'builder-run-runs-dark');
    await useTheme(page, 'light');
  });

  test('P pauses and resumes the study on screen', async () => {
    await page.getByRole('heading', { level: 1, name: 'Runs' }).click();
    await page.keyboard.press('p');
    await page
      .locator(`[data-testid="study-card"][data-study-id="${studyId}"][data-status="paused"]`)
      .waitFor();
    await page.getByText('paused by the researcher').waitFor();
    await page.keyboard.press('p');
    await page
      .locator(`[data-testid="study-card"][data-study-id="${studyId}"][data-status="running"]`)
      .waitFor();
  });

  test('a reload mid-run keeps the study, its progress and the selection', async () => {
    const progress = studyCard().getByTestId('study-progress');
    const before = await numberAttribute(progress, 'data-done');
    expect(before).toBeLessThan(await numberAttribute(progress, 'data-total'));
    await page.reload();
    await waitConnected(page);
    expect(new URL(page.url()).hash).toBe(`#/runs/${encodeURIComponent(studyId)}`);
    await waitForNumber(progress, 'data-done', (done) => done >= before, 15_000);
    await page.locator(`[data-testid="study-detail"][data-study-id="${studyId}"]`).waitFor();
    await page.locator('[data-testid="arm-progress"]').first().waitFor();
    // Live again: progress keeps arriving on the new page's event socket.
    await waitForNumber(progress, 'data-done', (done) => done > before, 90_000);
  });

  test('the study completes with every known rep done', async () => {
    await page
      .locator(`[data-testid="study-card"][data-study-id="${studyId}"][data-status="completed"]`)
      .waitFor({ state: 'visible', timeout: 600_000 });
    const progress = studyCard().getByTestId('study-progress');
    const done = await numberAttribute(progress, 'data-done');
    const total = await numberAttribute(progress, 'data-total');
    expect(done).toBe(total);
    // Items whose uncued reps tie get no cued reps, so the total can fall short of 90.
    expect(total).toBeGreaterThan(6 * 3);
    expect(total).toBeLessThanOrEqual(fullDesign.totalReps);
    await expect(page.getByTestId('arm-progress').count()).resolves.toBe(fullDesign.conditions);
  }, 660_000);
});
