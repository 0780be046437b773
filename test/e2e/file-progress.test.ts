/**
 * The files worker's progress on the screens that wait on it, and Cancel beside it, in Chromium
 * against a real `cuelab serve`: the Import screen's busy line and the bundle controls' status
 * say how far the engine has come. To read the line, the engine's answer is held back from the
 * page (the request still reaches the engine, which does the work and publishes its progress)
 * until the line has been read and screenshotted at 1024x700 and 1440x900, then let through.
 * Cancel is pressed while the engine reads a folder of 1,200 runs (seconds of reading, where
 * the click takes a moment), or while a bundle's opening waits behind such a reading; the page
 * must then say "Cancelled" and the workspace hold nothing of the work.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import type { LabEventMessage } from '../../src/shared/lab-api';
import {
  createLabClient,
  subscribeLabEvents,
  type WebSocketLike,
} from '../../src/shared/lab-client';
import { runStudy } from '../helpers/bundle-study';
import { answerOf } from '../helpers/answer';
import { repoRoot } from './helpers/engine';
import { saveScreenshot } from './helpers/lab-page';
import { holdAnswer, openLabSession, type LabSession } from './helpers/lab-session';

const fixtures = join(repoRoot, 'test', 'fixtures', 'import');
const small = { width: 1024, height: 700 };
const sizes = [small, { width: 1440, height: 900 }];
let session: LabSession | undefined;
let page: Page;
let folder = '';
let bundleFile = '';
let bundleStudyId = '';
/** A folder of 1,200 mini-swe-agent runs: reading it takes the files worker seconds. */
let manyRuns = '';

function writeManyRuns(): string {
  const root = join(folder, 'many-runs');
  const source = join(fixtures, 'mini-swe-agent', 'run', 'trajs', 'django__django-14752');
  for (let index = 1; index <= 1200; index += 1) {
    const run = join(root, 'trajs', `run-${index}`);
    mkdirSync(run, { recursive: true });
    copyFileSync(
      join(source, 'django__django-14752.traj.json'),
      join(run, `run-${index}.traj.json`),
    );
  }
  return root;
}

/** Screenshots the page at both sizes, ending at the small one. */
async function screenshots(name: string): Promise<void> {
  for (const size of [...sizes].reverse()) {
    await page.setViewportSize(size);
    await saveScreenshot(page, `${name}-${size.width}`);
  }
}

/** Waits (generously: under load the first job also starts the files worker) for `pattern`. */
async function textMatches(testId: string, pattern: RegExp): Promise<void> {
  const line = page.getByTestId(testId);
  await expect
    .poll(async () => (await line.textContent()) ?? '', { timeout: 30_000 })
    .toMatch(pattern);
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'cuelab-e2e-file-progress-'));
  // A bundle of a small synthetic study, made in a workspace of its own.
  const maker = createEngine({ path: join(folder, 'maker'), source: 'flag' });
  try {
    bundleStudyId = await runStudy(engineStore(maker));
    const bundle = await answerOf(maker.handlers.exportBundle({ studyId: bundleStudyId }));
    bundleFile = join(folder, bundle.fileName);
    writeFileSync(bundleFile, Buffer.from(bundle.base64, 'base64'));
  } finally {
    maker.close();
  }
  manyRuns = writeManyRuns();
  session = await openLabSession('#/import', small);
  page = session.page;
});

afterAll(async () => {
  await session?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('progress of file work', () => {
  test('the Import screen says how far reading the runs has come', async () => {
    await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
    await page.getByTestId('import-path').fill(fixtures);
    const hold = await holdAnswer(page, 'importRuns');
    await page.getByRole('button', { name: 'Preview' }).click();
    await textMatches('import-busy', /^Reading the runs… reading runs \(\d+%\)$/);
    for (const size of sizes) {
      await page.setViewportSize(size);
      await saveScreenshot(page, `file-progress-import-${size.width}`);
    }
    await hold.release();
    await page.getByTestId('import-summary').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('import-busy').count()).toBe(0);
  });

  test('Cancel beside the busy line stops an import before it stores the suite', async () => {
    await page.setViewportSize(small);
    const client = createLabClient(session!.engine.address);
    await page.getByTestId('import-path').fill(manyRuns);
    await page.getByLabel('Suite name (default: the folder’s name)').fill('Cancelled runs');
    await page.getByRole('button', { name: 'Import as suite' }).click();
    await textMatches('import-busy', /^Reading the runs… reading runs \(\d+%\)$/);
    const cancel = page.getByRole('button', { name: 'Cancel reading the runs' });
    await screenshots('file-cancel-import-busy');
    // Keyboard: the button takes focus and Enter presses it.
    await cancel.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('import-cancelled').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('import-cancelled').textContent()).toBe('Cancelled');
    expect(await page.getByTestId('import-busy').count()).toBe(0);
    await screenshots('file-cancel-import-done');
    const suites = await client.listSuites({});
    expect(suites.ok && suites.value.map((suite) => suite.id)).not.toContain('cancelled-runs');
  });

  test('opening a bundle shows the step the engine is on', async () => {
    await page.setViewportSize(small);
    await session!.goto('#/replay');
    const hold = await holdAnswer(page, 'openBundle');
    await page.getByTestId('open-bundle-input').setInputFiles(bundleFile);
    await textMatches('bundle-status', /^Opening the bundle… storing 6 reps \(50%\)$/);
    for (const size of sizes) {
      await page.setViewportSize(size);
      await saveScreenshot(page, `file-progress-bundle-${size.width}`);
    }
    await hold.release();
    await textMatches('bundle-status', /^Opened bundle study: 6 reps, \d+ labels?$/);
  });

  test('Escape cancels a bundle waiting behind other file work; a caller hanging up cancels too', async () => {
    await page.setViewportSize(small);
    const address = session!.engine.address;
    // The bundle's study is in the workspace now: the page offers to replace it.
    await page.getByTestId('open-bundle-input').setInputFiles(bundleFile);
    await page.getByTestId('bundle-replace').waitFor({ timeout: 30_000 });
    const heard: LabEventMessage[] = [];
    const stopListening = subscribeLabEvents(
      address,
      (url) => new WebSocket(url) as unknown as WebSocketLike,
      { onEvent: (event) => heard.push(event) },
    );
    const reading = (step: RegExp) => () =>
      heard.some(
        (event) =>
          event.stream === 'files.progress' &&
          event.data.method === 'importRuns' &&
          step.test(event.data.step ?? ''),
      );
    // Another client reads the 1,200 runs: the files worker is busy with it for seconds.
    const hangUp = new AbortController();
    const other = fetch(new URL('/api/importRuns', address.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${address.token}` },
      body: JSON.stringify({ path: manyRuns, format: 'auto', save: false }),
      signal: hangUp.signal,
    }).catch((error: unknown) => error);
    try {
      await expect.poll(reading(/^reading runs$/), { timeout: 30_000 }).toBe(true);
      await page.getByTestId('bundle-replace').click();
      await textMatches('bundle-status', /^Opening the bundle… starting$/);
      await expect
        .poll(() => page.getByRole('button', { name: 'Cancel opening' }).isEnabled())
        .toBe(true);
      await screenshots('file-cancel-bundle-busy');
      await page.keyboard.press('Escape');
      await textMatches('bundle-status', /^Cancelled$/);
      await screenshots('file-cancel-bundle-done');
      // The other client hangs up: the engine cancels its reading too.
      hangUp.abort();
      expect(await other).toMatchObject({ name: 'AbortError' });
      await expect.poll(reading(/^cancelled$/), { timeout: 30_000 }).toBe(true);
    } finally {
      hangUp.abort();
      stopListening();
    }
    // Cancelled before it ran, the replacement deleted nothing: the study has its 6 reps.
    const after = await createLabClient(address).studyProgress({ studyId: bundleStudyId });
    expect(after.ok && after.value.done).toBe(6);
  });
});
