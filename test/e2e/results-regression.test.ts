/**
 * The factorial-regression figure and Fig. 3's effort bins in Chromium against a real
 * `cuelab serve`, on an imported 2 × 2 factorial (cue strength × placement, simulated): the
 * forest plot draws a row per factor level with its odds ratio, the CSV the window downloads
 * carries the table, and an effort bin resting on fewer than 15 items is a hollow dot with a
 * footnote saying so. Screenshots at 1024 × 700 and 1440 × 900 land in test-results/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLabClient } from '../../src/shared/lab-client';
import { repoRoot } from './helpers/engine';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';
import { csvStudy } from './helpers/results-fixture';

const conditions = [
  ['axes:strength=strong@system', 0.45],
  ['axes:strength=weak@system', 0.2],
  ['axes:strength=strong@user', 0.3],
  ['axes:strength=weak@user', 0.12],
] as const;

/**
 * 30 items, gold pass, the uncued judge right on all of them. Items 0-19 take 4-6 turns on the
 * cued arm, items 20-29 take 11-15: that bin has 30 reps from 10 items (plotted, few items).
 */
function factorialCsv(): string {
  let seed = 4242;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const lines = [
    'item_id,dataset,judge,condition,cue_direction,rep,verdict,gold,dimension,turns,simulated',
  ];
  for (let item = 0; item < 30; item += 1) {
    for (let rep = 1; rep <= 3; rep += 1)
      lines.push(`i${item},ds,judge-a,uncued,,${rep},pass,pass,task_success,5,true`);
    for (const [condition, rate] of conditions)
      for (let rep = 1; rep <= 3; rep += 1) {
        const turns = item < 20 ? 4 + (rep % 3) : 11 + ((item + rep) % 5);
        const verdict = random() < rate ? 'fail' : 'pass';
        lines.push(
          `i${item},ds,judge-a,${condition},severity,${rep},${verdict},pass,task_success,${turns},true`,
        );
      }
  }
  return `${lines.join('\n')}\n`;
}

let studyId = '';
let session: WorkspaceSession<string> | undefined;
let page: Page;

beforeAll(async () => {
  session = await openWorkspaceSession({
    name: 'regression',
    viewport: { width: 1440, height: 900 },
    fill: csvStudy(factorialCsv(), 'Factorial study'),
  });
  ({ page, filled: studyId } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('factorial regression and effort bins', () => {
  test('the forest plot draws each factor level, simulated, and its CSV carries the table', async () => {
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      await session!.goto(`#/results/${studyId}`);
      const chart = page.locator('[data-testid="chart-regression"][data-filled="true"]');
      await chart.waitFor({ state: 'visible', timeout: 15_000 });
      await chart.scrollIntoViewIfNeeded();
      const svg = chart.locator('svg').first();
      // strength: strong (reference) and weak; placement: system (reference) and user.
      const rows = svg.locator('[data-testid="regression-row"]');
      expect(await rows.count()).toBe(4);
      const text = (await svg.textContent()) ?? '';
      expect(text).toContain('strength: weak');
      expect(text).toContain('placement: user');
      expect(text).toContain('SIMULATED');
      expect(text).toMatch(/reference/);
      await page.mouse.move(0, 0);
      await chart.screenshot({
        path: join(repoRoot, 'test-results', `chart-regression-${width}.png`),
      });
    }
    const client = createLabClient(session!.engine.address);
    const csv = await client.reportCsv({ studyId, table: 'regression' });
    if (!csv.ok) throw new Error(csv.error.message);
    expect(csv.value.csv).toMatch(/oddsRatio/);
    expect(csv.value.csv).toMatch(/strength,weak,strong/);
    expect(csv.value.fileName).toMatch(/regression/);
  });

  test('an effort bin on fewer than 15 items is hollow, and the key says so', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await session!.goto(`#/results/${studyId}`);
    const chart = page.locator('[data-testid="chart-effort"][data-filled="true"]');
    await chart.waitFor({ state: 'visible', timeout: 15_000 });
    await chart.scrollIntoViewIfNeeded();
    const svg = chart.locator('svg').first();
    expect(await svg.locator('[data-testid="effort-point"][data-few-items="true"]').count()).toBe(
      1,
    );
    expect(await svg.locator('[data-testid="effort-point"][data-few-items="false"]').count()).toBe(
      1,
    );
    const hollow = svg.locator('[data-testid="effort-point"][data-few-items="true"] circle');
    expect(await hollow.getAttribute('fill')).toBe('#ffffff');
    expect((await svg.textContent()) ?? '').toContain('hollow dot: bin on fewer than 15 items');
    await page.mouse.move(0, 0);
    await chart.screenshot({ path: join(repoRoot, 'test-results', 'chart-effort-hollow.png') });
  });
});
