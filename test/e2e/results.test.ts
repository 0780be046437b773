/**
 * Results, exports and Settings in Chromium against a real `cuelab serve`. Per-rep results are
 * imported into the workspace before the engine starts (`cuelab import-results`), so the data
 * is deterministic and fast: three judges × four datasets, three placements, one mitigation,
 * all marked simulated. Screenshots and an exported PNG land in test-results/.
 */
import { liveResultTableNames } from '../../src/renderer/charts/table-values';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLabClient } from '../../src/shared/lab-client';
import { repoRoot, type RunningEngine } from './helpers/engine';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';
import {
  controlOnlyCsv,
  cuelab,
  download,
  importStudy,
  liveStudySpec,
  pngSize,
  resultsCsv,
  setTheme,
} from './helpers/results-fixture';

const screenshots = join(repoRoot, 'test-results');
const sessionKey = 'sk-ant-e2e-0123456789-WXYZ';
const charts = ['flips', 'severity', 'ablation', 'placement', 'effort', 'accuracy', 'mitigations'];

let studyId = '';
let emptyStudyId = '';
let flipsCsv = '';
let flipsJson: { rows: Record<string, string | number | null>[] } = { rows: [] };
let session: WorkspaceSession | undefined;
let page: Page;

function running(): RunningEngine {
  if (!session) throw new Error('The engine did not start.');
  return session.engine;
}

async function screenshot(name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  session = await openWorkspaceSession({
    name: 'results',
    viewport: { width: 1280, height: 2460 },
    fill: (workspace, folder) => {
      studyId = importStudy(workspace, join(folder, 'results.csv'), resultsCsv(), 'E2E cue study');
      emptyStudyId = importStudy(
        workspace,
        join(folder, 'uncued.csv'),
        controlOnlyCsv,
        'Control arm only',
      );
      const report = (format: string) =>
        cuelab(workspace, ['report', studyId, '--table', 'flips', '--format', format]);
      flipsCsv = report('csv');
      flipsJson = JSON.parse(report('json')) as typeof flipsJson;
    },
    engine: { env: { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: 'sk-e2e-environment-key-9876' } },
  });
  ({ page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('Results of an imported, simulated study', () => {
  test('every figure fills and says simulated', async () => {
    await page.goto(`${running().url}#/results/${studyId}`);
    await page
      .locator('[data-testid="engine-status"][data-state="connected"]')
      .waitFor({ timeout: 15_000 });
    for (const table of charts) {
      const chart = page.locator(`[data-testid="chart-${table}"][data-filled="true"]`);
      await chart.waitFor({ state: 'visible', timeout: 15_000 });
      expect(await chart.getAttribute('data-simulated')).toBe('true');
      await chart.locator('svg').getByText('SIMULATED: synthetic-judge data').waitFor();
    }
    expect(new URL(page.url()).hash).toBe(`#/results/${studyId}`);
    await screenshot('results-light');
    for (const table of charts)
      await page
        .getByTestId(`chart-${table}`)
        .screenshot({ path: join(screenshots, `chart-${table}-light.png`) });
  });

  test('hovering a heatmap cell shows its numbers; clicking lists the reps behind it', async () => {
    const row = flipsJson.rows.find(
      (entry) =>
        entry.condition === 'system' &&
        entry.scope === 'judge-dataset' &&
        entry.judge === 'sonnet-4.6' &&
        entry.dataset === 'aj-postgres',
    );
    if (!row) throw new Error('The flips table has no sonnet-4.6 × aj-postgres row.');
    const cell = page.locator(
      '[data-testid="heat-cell"][data-judge="sonnet-4.6"][data-dataset="aj-postgres"]',
    );
    await cell.hover();
    const tooltip = page.getByTestId('chart-tooltip');
    await tooltip.waitFor({ state: 'visible' });
    const text = await tooltip.innerText();
    expect(text).toContain(`${Number(row.harmfulPct).toFixed(1)}%`);
    expect(text).toContain(`${row.harmful} / ${row.gate}`);
    expect(text).toContain(
      `[${Number(row.harmfulCiLow).toFixed(1)}, ${Number(row.harmfulCiHigh).toFixed(1)}]`,
    );
    await page.screenshot({
      path: join(screenshots, 'results-heatmap-tooltip.png'),
      clip: { x: 200, y: 150, width: 1000, height: 520 },
    });

    await cell.click();
    const panel = page.getByTestId('reps-panel');
    await panel.waitFor({ state: 'visible' });
    await panel.getByText('judge sonnet-4.6 · dataset aj-postgres').waitFor();
    await panel.getByText(/No stored reps match|\d+ reps/).waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  test('exports the heatmap as PNG at 300 dpi and SVG, and the flips table as the CLI prints it', async () => {
    // A double-column figure (7.16 in) at 300 dpi, whatever the window's width.
    const png = await download(page, 'export-flips-png');
    expect(png.name).toBe(`cuelab-${studyId.slice(0, 8)}-flips-7.16in.png`);
    const bytes = readFileSync(png.path);
    expect(pngSize(bytes).width).toBe(2148);
    copyFileSync(png.path, join(screenshots, 'export-flips.png'));

    const svgFile = await download(page, 'export-flips-svg');
    copyFileSync(svgFile.path, join(screenshots, 'export-flips.svg'));
    const svg = readFileSync(svgFile.path, 'utf8');
    expect(svg.startsWith('<?xml')).toBe(true);
    expect(svg).toContain('Harmful flip rate by judge × dataset');
    expect(svg).toContain('SIMULATED');
    expect(svg).not.toContain('data-export-exclude');

    const csv = await download(page, 'export-flips-csv');
    expect(readFileSync(csv.path, 'utf8')).toBe(flipsCsv);

    const severity = readFileSync((await download(page, 'export-severity-png')).path);
    copyFileSync(
      (await download(page, 'export-severity-png')).path,
      join(screenshots, 'export-severity.png'),
    );
    expect(pngSize(severity).width).toBe(2148);
  });

  test('dark theme, switched from the command palette (Ctrl+K)', async () => {
    await page.keyboard.press('Control+KeyK');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.type('toggle theme');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    await page.locator('[data-testid="chart-flips"][data-filled="true"]').waitFor();
    await screenshot('results-dark');
    const png = await download(page, 'export-effort-png');
    copyFileSync(png.path, join(screenshots, 'export-effort-dark.png'));
    await setTheme(page, 'light');
  });

  test('inside the desktop shell, exports go through window.cuelab.saveFile', async () => {
    const tab = await page.context().newPage();
    try {
      await tab.addInitScript((address) => {
        const saved: unknown[] = [];
        Object.assign(window, {
          savedFiles: saved,
          cuelab: {
            shell: 'electron',
            getEngine: () => Promise.resolve({ address, restarts: 0 }),
            onEngineChange: () => () => undefined,
            saveFile: (options: unknown) => (saved.push(options), Promise.resolve('/chosen/file')),
          },
        });
      }, running().address);
      await tab.goto(`${running().address.baseUrl}#/results/${studyId}`);
      await tab
        .locator('[data-testid="chart-flips"][data-filled="true"]')
        .waitFor({ timeout: 15_000 });
      await tab.getByTestId('export-flips-png').click();
      await tab.getByText('Saved /chosen/file').waitFor();
      await tab.getByTestId('export-flips-csv').click();
      await tab.waitForFunction(
        () => (window as unknown as { savedFiles: unknown[] }).savedFiles.length === 2,
      );
      const saved = await tab.evaluate(() =>
        (
          window as unknown as { savedFiles: { defaultName: string; data: unknown }[] }
        ).savedFiles.map((file) => ({
          name: file.defaultName,
          png: file.data instanceof Uint8Array ? [...file.data.subarray(1, 4)] : null,
          text: typeof file.data === 'string' ? file.data : null,
        })),
      );
      expect(saved[0]?.name).toBe(`cuelab-${studyId.slice(0, 8)}-flips-7.16in.png`);
      expect(saved[0]?.png).toEqual([0x50, 0x4e, 0x47]);
      expect(saved[1]?.text).toBe(flipsCsv);
    } finally {
      await tab.close();
    }
  });

  test('a study with nothing to pair shows each table’s notes instead of a blank figure', async () => {
    await page.getByTestId('results-study').selectOption(emptyStudyId);
    const flips = page.locator('[data-testid="chart-flips"][data-filled="false"]');
    await flips.waitFor({ state: 'visible' });
    await flips.getByText('this study has no cued reps').waitFor();
    expect(await page.getByTestId('export-flips-png').isDisabled()).toBe(true);
    await screenshot('results-empty-light');
  });
});

describe('a native synthetic study, live', () => {
  test('figures refresh at most once a second while reps land; a cell lists its reps', async (context) => {
    const client = createLabClient(running().address);
    const environment = await client.environmentStatus({});
    if (!environment.ok || !environment.value.dockerAvailable) context.skip();
    let tableRequests = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/reportTable')) tableRequests += 1;
    });
    const created = await client.createStudy({ spec: liveStudySpec });
    if (!created.ok) throw new Error(created.error.message);
    const started = Date.now();
    await page.goto(`${running().url}#/results/${created.value.studyId}`);
    const seen = new Set<string>();
    const status = page.getByTestId('results-status');
    while (!(await status.innerText()).includes('Completed')) {
      seen.add(/n = (\d+)/.exec(await status.innerText())?.[1] ?? '');
      if (Date.now() - started > 90_000) throw new Error('The study did not complete in 90 s.');
      await page.waitForTimeout(200);
    }
    await status.getByText('n = 48 reps analysed').waitFor({ timeout: 5_000 });
    const seconds = (Date.now() - started) / 1000;
    expect(seen.size).toBeGreaterThan(1);
    // One refresh fetches every live table; at most one refresh a second (plus the first and last).
    expect(tableRequests / liveResultTableNames.length).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    await page.locator('[data-testid="chart-flips"][data-filled="true"]').waitFor();

    await page.locator('[data-testid="heat-cell"][data-judge="deferential"]').first().click();
    const panel = page.getByTestId('reps-panel');
    await panel.getByText(/^\d+ reps$/).waitFor();
    expect(await panel.locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot('results-live-reps-panel');
    await page.keyboard.press('Escape');
  });
});

describe('Settings', () => {
  test('a key is handed to the engine and shown only by its last four characters', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${running().url}#/settings`);
    await page
      .locator('[data-testid="engine-status"][data-state="connected"]')
      .waitFor({ timeout: 15_000 });
    await page.getByTestId('secret-OPENAI_API_KEY').getByText('…9876').waitFor();
    await page.getByTestId('secret-value').fill(sessionKey);
    await page.getByTestId('secret-save').click();
    const hint = page.getByTestId('secret-ANTHROPIC_API_KEY');
    await hint.getByText('…WXYZ').waitFor();
    expect(await hint.innerText()).toContain('set for this session');
    expect(await page.getByTestId('secret-value').inputValue()).toBe('');
    expect(await page.content()).not.toContain(sessionKey);
  });

  test('Docker status and the base image are shown', async () => {
    const panel = page.getByTestId('environment-panel');
    await panel.getByText(/^(Available|Unavailable)$/).waitFor();
    await panel
      .getByTestId('image-base')
      .getByText(/^(present|absent)/)
      .waitFor();
    const build = page.getByTestId('build-base-image');
    if (await build.isEnabled()) {
      // The image is usually there already: the engine reports that through env.bootstrap.
      await build.click();
      await page
        .getByTestId('bootstrap-log')
        .getByText(/already built|Built |failed/)
        .first()
        .waitFor({ timeout: 120_000 });
    }
    // The PostgreSQL image has its own row, state and build button.
    const postgres = panel.getByTestId('image-postgres');
    await postgres.getByText(/^(present|absent|building)/).waitFor();
    expect(await postgres.innerText()).toContain('cuelab/postgres:');
    const buildPostgres = page.getByTestId('build-postgres-image');
    expect(await buildPostgres.innerText()).toMatch(/^Build(ing)? PostgreSQL image/);
    if (await buildPostgres.isEnabled()) {
      await buildPostgres.click();
      await page
        .getByTestId('bootstrap-log')
        .getByText(
          /cuelab\/postgres:\S+ was already built|Built cuelab\/postgres|PostgreSQL image failed/,
        )
        .first()
        .waitFor({ timeout: 900_000 });
      await postgres.getByText(/^present/).waitFor({ timeout: 15_000 });
    }
    await screenshot('settings-light');
    await setTheme(page, 'dark');
    await screenshot('settings-dark');
    await setTheme(page, 'light');
  });
});
