/**
 * The harm/help frontier in Chromium against a real `cuelab serve`: a simulated study with four
 * mitigated arms (three of the paper's, commit-first, and a user-defined one) imported before the
 * engine starts. The figure sits beside Table 1's, plots one point per mitigation with its
 * intervals, says SIMULATED, labels commit-first a hypothesis and the user's mitigation "effect
 * not modelled", and exports as PNG and SVG. The Builder, given a synthetic judge and a
 * user-defined mitigation, says "effect not modelled" beside it and in its estimate.
 * Screenshots land in test-results/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './helpers/engine';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';
import { csvStudy, download, pngSize, resultsCsv } from './helpers/results-fixture';

const screenshots = join(repoRoot, 'test-results');
const arms = [
  { condition: 'system', placement: 'system_prompt', mitigation: '', flip: 0.45 },
  { condition: 'system-guard', placement: 'system_prompt', mitigation: 'guard', flip: 0.12 },
  { condition: 'system-cite', placement: 'system_prompt', mitigation: 'cite-evidence', flip: 0.4 },
  { condition: 'system-commit', placement: 'system_prompt', mitigation: 'commit-first', flip: 0.2 },
  { condition: 'system-mine', placement: 'system_prompt', mitigation: 'my-note', flip: 0.45 },
];

let studyId = '';
let session: WorkspaceSession<string> | undefined;
let page: Page;

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  const names = {
    judges: ['opus-4.7', 'sonnet-4.6'],
    datasets: ['aj-filesystem', 'aj-postgres'],
    arms,
    cueLabel: 'authority',
  };
  session = await openWorkspaceSession({
    name: 'frontier',
    viewport: { width: 1280, height: 2400 },
    fill: csvStudy(resultsCsv(names), 'E2E frontier study'),
    engine: { env: { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' } },
  });
  ({ page, filled: studyId } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('the harm/help frontier figure', () => {
  test('plots each mitigation with its labels, SIMULATED, beside Table 1', async () => {
    if (!session) throw new Error('The engine did not start.');
    await session.goto(`#/results/${studyId}`);
    const figure = page.locator('[data-testid="chart-frontier"][data-filled="true"]');
    await figure.waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="chart-mitigations"][data-filled="true"]').waitFor();
    const points = figure.locator('[data-frontier-point]');
    expect(await points.count()).toBe(4);
    const text = (await figure.locator('svg').first().textContent()) ?? '';
    expect(text).toContain('SIMULATED');
    expect(text).toContain('percentage points');
    expect(text).toContain('% of before');
    expect(text).toMatch(/n = \d+ gated items/);
    // The label wraps onto two SVG lines.
    expect(text).toContain('commit-first (CueLab’s own;');
    expect(text).toContain('simulated as a hypothesis)');
    expect(text).toContain('my-note (effect not modelled)');
    await page.mouse.move(0, 0);
    await figure.scrollIntoViewIfNeeded();
    await figure.screenshot({ path: join(screenshots, 'results-frontier.png') });
  });

  test('exports as PNG and SVG like every figure', async () => {
    const png = await download(page, 'export-frontier-png');
    expect(png.name).toMatch(/frontier-7\.16in\.png$/);
    expect(pngSize(readFileSync(png.path)).width).toBeGreaterThan(500);
    const svg = await download(page, 'export-frontier-svg');
    const svgText = readFileSync(svg.path, 'utf8');
    expect(svgText).toContain('SIMULATED');
    expect(svgText).toContain('Harm/help frontier');
  });
});

describe('a user-defined mitigation in the Builder of a synthetic study', () => {
  test('is marked "effect not modelled" beside it and in the estimate', async () => {
    if (!session) throw new Error('The engine did not start.');
    const specPath = join(session.folder, 'synthetic.cuelab.json');
    writeFileSync(
      specPath,
      JSON.stringify({
        name: 'Synthetic with my mitigation',
        suite: 'cuelab-mini',
        items: { datasets: ['mini-filesystem'], limit: 2 },
        judges: [
          {
            id: 'opus-like',
            provider: 'synthetic',
            model: 'synthetic',
            persona: 'deferential-frontier',
          },
        ],
        arms: {
          mitigations: [
            [],
            [{ kind: 'custom', id: 'my-note', label: 'My note', systemText: 'Be careful.' }],
          ],
        },
      }),
    );
    await session.goto('#/builder');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Open spec…' }).click(),
    ]);
    await chooser.setFiles(specPath);
    await page.getByText('my-note · effect not modelled').waitFor();
    await page
      .locator('.estimate-warning', { hasText: 'Effect not modelled: my-note is user-defined' })
      .waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(screenshots, 'builder-not-modelled.png'), fullPage: true });
  });
});
