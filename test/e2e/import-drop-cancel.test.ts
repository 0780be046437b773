/**
 * A folder dropped on the Import screen, cancelled while it uploads, in Chromium against a real
 * `cuelab serve`. The folder is dropped as a person drops one from the file manager: Chromium's
 * own drag and drop (DevTools' Input.dispatchDragEvent with the folder's path), so the page
 * walks it through its directory entries. The engine's answers to the upload's requests are
 * held back from the page (each request still reaches the engine, which stages its pieces)
 * until the busy line and its Cancel have been read and screenshotted at 1024x700 and
 * 1440x900; Cancel is then pressed, and the page must say the upload was cancelled, send no
 * further piece, preview nothing, and the workspace hold no suite of the folder. Then Escape
 * cancels a larger folder's upload mid-way, nothing held back (the engine stops the piece it
 * is staging).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLabClient } from '../../src/shared/lab-client';
import { repoRoot } from './helpers/engine';
import { saveScreenshot } from './helpers/lab-page';
import { holdAnswer, openLabSession, type LabSession } from './helpers/lab-session';

const sizes = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];
const source = join(
  repoRoot,
  'test/fixtures/import/mini-swe-agent/run/trajs/django__django-14752/django__django-14752.traj.json',
);
let session: LabSession | undefined;
let page: Page;
let folder = '';

/** A run folder `name` of `runs` mini-swe-agent runs (77 KB each). */
function runFolder(name: string, runs: number): string {
  const root = join(folder, name);
  for (let index = 1; index <= runs; index += 1) {
    const run = join(root, 'trajs', `run-${index}`);
    mkdirSync(run, { recursive: true });
    copyFileSync(source, join(run, `run-${index}.traj.json`));
  }
  return root;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'cuelab-e2e-drop-cancel-'));
  session = await openLabSession('#/import', sizes[1]!);
  page = session.page;
});

afterAll(async () => {
  await session?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Drops the folder at `path` on the element `testId` names, through Chromium's drag and drop. */
async function dropFolder(testId: string, path: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  if (!box) throw new Error(`${testId} is not on screen.`);
  const cdp = await page.context().newCDPSession(page);
  try {
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const data = { items: [], files: [path], dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
      await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
    }
  } finally {
    await cdp.detach();
  }
}

/** The API methods the page calls from now on, in order. */
function methodsSent(): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const method = /\/api\/(\w+)$/.exec(request.url())?.[1];
    if (method) sent.push(method);
  });
  return sent;
}

/** Nothing of the folder `name` was previewed or stored. */
async function nothingOf(name: string, sent: readonly string[]): Promise<void> {
  expect(sent).not.toContain('importRuns');
  expect(await page.getByTestId('import-summary').count()).toBe(0);
  expect(await page.getByTestId('import-path').inputValue()).toBe('');
  const suites = await createLabClient(session!.engine.address).listSuites({});
  expect(suites.ok).toBe(true);
  expect(suites.ok && suites.value.map((suite) => suite.name)).not.toContain(name);
  expect(await page.getByRole('alert').count()).toBe(0);
}

/** The elements `testIds` name whose boxes reach outside `containerId`'s, or that scroll sideways. */
async function outside(testIds: readonly string[], containerId: string): Promise<string[]> {
  const container = await page.getByTestId(containerId).boundingBox();
  if (!container) return [`${containerId} is not on screen`];
  const faults: string[] = [];
  for (const testId of testIds) {
    const element = page.getByTestId(testId);
    const box = await element.boundingBox();
    if (!box) faults.push(`${testId} is not on screen`);
    else if (box.x < container.x || box.x + box.width > container.x + container.width + 1)
      faults.push(`${testId} reaches outside ${containerId}`);
    else if (await element.evaluate((node) => node.scrollWidth > node.clientWidth + 1))
      faults.push(`${testId} scrolls sideways`);
  }
  return faults;
}

/** Screenshots the page at both sizes, ending at 1024x700. */
async function screenshots(name: string): Promise<void> {
  for (const size of sizes) {
    await page.setViewportSize(size);
    await saveScreenshot(page, `${name}-${size.width}`);
  }
}

describe('a folder dropped on the Import screen', () => {
  test('Cancel beside the upload stops it: nothing previewed, nothing stored', async () => {
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    // 40 runs, 3 MB: six of the upload's requests.
    const dropped = runFolder('dropped-runs', 40);
    const sent = methodsSent();
    const hold = await holdAnswer(page, 'uploadImportFiles');
    await dropFolder('import-drop', dropped);

    const status = page.getByTestId('import-upload-status');
    await expect
      .poll(async () => (await status.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/^Uploading dropped-runs: 0 of 40 files, 0\.0 MB of 3\.0 MB…$/);
    const cancel = page.getByRole('button', { name: 'Cancel the upload' });
    // Active once the engine's staging of the first piece is heard of (its work id).
    await expect.poll(() => cancel.isEnabled(), { timeout: 30_000 }).toBe(true);
    await screenshots('import-drop-cancel-busy');
    const requestsBefore = sent.filter((method) => method === 'uploadImportFiles').length;
    expect(requestsBefore).toBe(1);

    await cancel.click();
    expect(await cancel.textContent()).toBe('Cancelling…');
    await hold.release();
    await expect
      .poll(async () => (await status.textContent()) ?? '', { timeout: 30_000 })
      .toBe('Upload of dropped-runs cancelled; nothing was imported.');
    await screenshots('import-drop-cancel-done');

    // No piece after the one under way, no preview, and no suite.
    expect(sent.filter((method) => method === 'uploadImportFiles')).toHaveLength(requestsBefore);
    await nothingOf('dropped-runs', sent);
  });

  test('Escape cancels a larger upload mid-way', async () => {
    // 300 runs, 23 MB: some 45 requests, seconds of uploading.
    const dropped = runFolder('many-runs', 300);
    const sent = methodsSent();
    await dropFolder('import-drop', dropped);
    const status = page.getByTestId('import-upload-status');
    await expect
      .poll(async () => (await status.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/^Uploading many-runs: \d+ of 300 files/);
    const cancel = page.getByRole('button', { name: 'Cancel the upload' });
    await expect.poll(() => cancel.isEnabled(), { timeout: 30_000 }).toBe(true);
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => (await status.textContent()) ?? '', { timeout: 30_000 })
      .toBe('Upload of many-runs cancelled; nothing was imported.');
    const pieces = sent.filter((method) => method === 'uploadImportFiles').length;
    expect(pieces).toBeLessThan(40);
    await nothingOf('many-runs', sent);
  });

  test('a 120-character folder name stays inside the drop zone, busy and cancelled', async () => {
    await page.setViewportSize(sizes[1]!);
    const name = `runs-${'x'.repeat(115)}`;
    const dropped = runFolder(name, 8);
    const hold = await holdAnswer(page, 'uploadImportFiles');
    await dropFolder('import-drop', dropped);
    const cancel = page.getByRole('button', { name: 'Cancel the upload' });
    await expect.poll(() => cancel.isEnabled(), { timeout: 30_000 }).toBe(true);
    const status = page.getByTestId('import-upload-status');
    expect(await status.textContent()).toContain(name);
    // Cut with an ellipsis on screen, whole in the tooltip.
    expect(await status.locator('[title]').getAttribute('title')).toBe(name);
    await saveScreenshot(page, 'import-drop-long-name-busy-1024');
    expect(await outside(['import-upload-status', 'cancel-file-work'], 'import-drop')).toEqual([]);
    await cancel.click();
    await hold.release();
    await expect
      .poll(async () => (await status.textContent()) ?? '', { timeout: 30_000 })
      .toBe(`Upload of ${name} cancelled; nothing was imported.`);
    await saveScreenshot(page, 'import-drop-long-name-done-1024');
    expect(await outside(['import-upload-status'], 'import-drop')).toEqual([]);
  });
});
