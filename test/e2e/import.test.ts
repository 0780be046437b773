/**
 * The Import screen in Chromium against a real `cuelab serve`: a folder of real public runs
 * (SWE-bench via mini-swe-agent, Terminal-Bench 1) is previewed — items with gold labels,
 * message counts, environments and provenance, what was skipped and why — then imported, and
 * the suite is in the workspace. A dropped folder or dropped files (the browser gives no path)
 * are uploaded to the engine and previewed the same way. Screenshots land in test-results/.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLabClient } from '../../src/shared/lab-client';
import { repoRoot, type RunningEngine } from './helpers/engine';
import { saveScreenshot } from './helpers/lab-page';
import { openLabSession, type LabSession } from './helpers/lab-session';

const fixtures = join(repoRoot, 'test', 'fixtures', 'import');
let session: LabSession | undefined;
let engine: RunningEngine | undefined;
let page: Page;

beforeAll(async () => {
  session = await openLabSession('#/import', { width: 1280, height: 900 });
  ({ engine, page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('Import screen', () => {
  test('previews a folder of runs, then imports it as a suite', async () => {
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    await page.getByTestId('import-path').fill(fixtures);
    await page.getByLabel('Suite name (default: the folder’s name)').fill('Public runs');
    await page.getByRole('button', { name: 'Preview' }).click();
    const summary = page.getByTestId('import-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(/^Preview: \d+ items into suite public-runs/);
    const items = page.getByTestId('import-items');
    await expect.poll(() => items.locator('tbody tr').count()).toBeGreaterThanOrEqual(10);
    const row = items.locator('tr', { hasText: 'django__django-14752' });
    expect(await row.textContent()).toMatch(
      /mini-swe-agentpass\d+image swebench\/sweb\.eval\.x86_64\.django_1776_django-14752:latest/,
    );
    const skipped = await page.getByTestId('import-skipped').textContent();
    expect(skipped).toMatch(/cron-broken-network.*agent-never-ran/);
    // Renaming the suite previews again under the new name, then back.
    const name = page.getByLabel('Suite name (default: the folder’s name)');
    await name.fill('Public runs renamed');
    await expect
      .poll(async () => (await summary.textContent()) ?? '')
      .toMatch(/^Preview: \d+ items into suite public-runs-renamed/);
    await name.fill('Public runs');
    await expect
      .poll(async () => (await summary.textContent()) ?? '')
      .toMatch(/^Preview: \d+ items into suite public-runs\b(?!-)/);
    const client = createLabClient(engine!.address);
    const before = await client.listSuites({});
    expect(before.ok && before.value.some((suite) => suite.id === 'public-runs')).toBe(false);
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'import-preview');
    await page.getByTestId('import-skipped').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'import-skipped');

    await page.getByRole('button', { name: 'Import as suite' }).click();
    await expect
      .poll(async () => (await summary.textContent()) ?? '')
      .toMatch(/^Imported \d+ items into suite public-runs/);
    const after = await client.listSuites({});
    expect(
      after.ok && after.value.find((suite) => suite.id === 'public-runs')?.itemCount,
    ).toBeGreaterThanOrEqual(10);
    await saveScreenshot(page, 'import-done');
  });

  test('uploads a chosen folder (no path in a browser) and previews what it imports', async () => {
    await page.getByLabel('Suite name (default: the folder’s name)').fill('');
    await page.getByTestId('import-folder-input').setInputFiles(join(fixtures, 'mcpmark'));
    const status = page.getByTestId('import-upload-status');
    await expect
      .poll(async () => (await status.textContent()) ?? '')
      .toMatch(/^Uploaded mcpmark \(\d+ files, [\d.]+ MB\) to a temporary folder/);
    const summary = page.getByTestId('import-summary');
    await expect
      .poll(async () => (await summary.textContent()) ?? '')
      .toMatch(/^Preview: 3 items into suite mcpmark /);
    const staged = await page.getByTestId('import-path').inputValue();
    expect(staged).toMatch(/cuelab-import-[^/]+\/mcpmark$/);
    const row = page.getByTestId('import-items').locator('tr', { hasText: 'gpt-5__postgres' });
    expect(await row.textContent()).toContain('PostgreSQL database chinook + 4 replayed SQL');
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'import-uploaded');
  });

  test('uploads files dropped on the drop zone', async () => {
    const run = join(fixtures, 'mcpmark', 'results', 'demo', 'gpt-5__filesystem', 'run-1');
    const folder = join(run, 'file_property__largest_rename');
    const files = ['messages.json', 'meta.json'].map((name) => ({
      name,
      text: readFileSync(join(folder, name), 'utf8'),
    }));
    const transfer = await page.evaluateHandle((list) => {
      const data = new DataTransfer();
      for (const file of list) data.items.add(new File([file.text], file.name));
      return data;
    }, files);
    const zone = page.getByTestId('import-drop');
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'import-drop-over');
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    const summary = page.getByTestId('import-summary');
    await expect
      .poll(async () => (await summary.textContent()) ?? '')
      .toMatch(/^Preview: 1 item into suite /);
    expect(await page.getByTestId('import-upload-status').textContent()).toMatch(
      /^Uploaded dropped \(2 files/,
    );
  });

  test("shows each item's container limits and names the runs without gold", async () => {
    const reads: string[] = [];
    const count = (request: Request) => {
      if (request.url().endsWith('/api/importRuns')) reads.push(request.postData() ?? '');
    };
    page.on('request', count);
    // Renaming under the previous test's preview would re-preview it a moment later; the new
    // path and Preview come first, so the old folder is not read again.
    await page.getByLabel('Suite name (default: the folder’s name)').fill('');
    await page.getByTestId('import-path').fill(fixtures);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(async () => (await page.getByTestId('import-summary').textContent()) ?? '')
      .toMatch(/^Preview: (?:[2-9]|\d{2,}) items into suite /);
    await page.waitForTimeout(1_000);
    page.off('request', count);
    expect(reads).toHaveLength(1);
    expect(JSON.parse(reads[0] ?? '{}')).toMatchObject({ path: fixtures, save: false });
    const row = page
      .getByTestId('import-items')
      .locator('tr', { hasText: 'count-words.1-of-1.terminus' });
    await row.waitFor();
    expect(await row.getByTestId('import-limits').textContent()).toBe(
      '1 CPU512 MiB128 pidsno network',
    );
    expect(await row.textContent()).toContain('Dockerfile (built locally)');
    const django = page
      .getByTestId('import-items')
      .locator('tr', { hasText: 'django__django-11099' });
    expect(await django.getByTestId('import-limits').textContent()).toBe(
      '2 CPUs6 GiB512 pidsno network',
    );
    const harbor = page
      .getByTestId('import-items')
      .locator('tr', { hasText: 'hello-world__AbC123' });
    expect(await harbor.getByTestId('import-limits').textContent()).toContain(
      '10 GiB disk (not enforced)',
    );
    const withoutGold = await page.getByTestId('import-without-gold').textContent();
    expect(withoutGold).toMatch(/^\d+ of \d+ items have no gold label .*pydicom__pydicom-1458/);
    await row.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'import-limits');
  });

  test("reads a CueLab suite file with the CLI's parser, and shows its FILE:LINE errors", async () => {
    await page
      .getByTestId('import-path')
      .fill(join(repoRoot, 'resources', 'suites', 'cuelab-mini.json'));
    await page.getByRole('button', { name: 'Preview' }).click();
    const summary = page.getByTestId('import-summary');
    await expect
      .poll(async () => (await summary.textContent()) ?? '')
      .toMatch(/^Preview: \d+ items into suite cuelab-mini/);
    expect(
      await page.getByTestId('import-items').locator('tbody tr').first().textContent(),
    ).toContain('cuelab');
    const folder = mkdtempSync(join(tmpdir(), 'cuelab-suite-'));
    try {
      const broken = join(folder, 'broken-suite.json');
      writeFileSync(
        broken,
        '{\n  "id": "broken",\n  "name": "Broken",\n  "items": [\n    {\n      "id": "a",\n' +
          '      "dataset": "d",\n      "substrate": "code",\n      "task": "t",\n' +
          '      "trajectory": [],\n      "gold": "maybe"\n    }\n  ]\n}\n',
      );
      await page.getByTestId('import-path').fill(broken);
      await page.getByRole('button', { name: 'Preview' }).click();
      const error = page.locator('.import-error');
      await error.waitFor();
      expect(await error.textContent()).toContain(`${broken}:11: items.0.gold:`);
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'import-suite-error');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('names the problem when nothing can be imported', async () => {
    await page.getByTestId('import-path').fill(join(fixtures, 'harbor', 'tasks'));
    await page.getByRole('button', { name: 'Preview' }).click();
    const error = page.locator('.import-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/No run of a known format/);
  });

  test('refuses a typed path outside the folders the engine may read, quoting nothing', async () => {
    await page.getByTestId('import-path').fill('/etc/passwd');
    await page.getByRole('button', { name: 'Preview' }).click();
    const error = page.locator('.import-error');
    await error.waitFor();
    await expect
      .poll(() => error.textContent())
      .toContain('outside the folders this engine may read');
    expect(await error.textContent()).not.toContain('root:x');
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'import-path-refused');
  });

  test('warns when the runs are another suite’s already, and refuses to store them twice', async () => {
    // The first test imported every fixture as suite public-runs, Terminal-Bench 1's included.
    await page.getByTestId('import-path').fill(join(fixtures, 'terminal-bench-real'));
    await page
      .getByLabel('Suite name (default: the folder’s name)')
      .fill('anthropic/claude-3-7-sonnet-20250219-thinking-16k on tally-errors');
    await page.getByRole('button', { name: 'Preview' }).click();
    const warnings = page.getByTestId('import-warnings');
    await warnings.waitFor();
    expect(await warnings.textContent()).toContain(
      '2 of these 2 runs are already imported as suite public-runs',
    );
    for (const [width, height] of [
      [1024, 700],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await saveScreenshot(page, `import-duplicate-warning-${width}`);
    }
    await page.getByRole('button', { name: 'Import as suite' }).click();
    const error = page.locator('.import-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('this import duplicates suite public-runs');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
