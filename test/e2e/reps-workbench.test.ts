/**
 * The reps workbench in Chromium at 1024×700 against a real `cuelab serve`. Before the engine
 * starts, a small synthetic study runs in the workspace with the real runner (one item, three
 * uncued reps and three cued reps that all flip; test/helpers/bundle-study.ts) and its flips are
 * classified. Then, with the keyboard where a person would use it: open every rep from the
 * Results toolbar, filter by flip, verdict and mechanism, search the transcripts, sort, open one
 * rep's transcript, and two reps side by side, never scrolling sideways.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dispatchLabCall } from '../../src/main/engine/api';
import { runStudy } from '../helpers/bundle-study';
import { saveScreenshot } from './helpers/lab-page';
import { withLocalEngine } from './helpers/local-engine';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';
import { engineStore } from '../../src/main/engine/engine-store';

let studyId = '';
let rationale = '';
let session: WorkspaceSession | undefined;
let page: Page;

beforeAll(async () => {
  session = await openWorkspaceSession({
    name: 'workbench',
    viewport: { width: 1024, height: 700 },
    fill: (workspace) =>
      withLocalEngine(workspace, async (local) => {
        studyId = await runStudy(engineStore(local));
        const classified = await dispatchLabCall(local.handlers, 'classifyStudy', { studyId });
        expect(classified.ok).toBe(true);
        const flips = await dispatchLabCall(local.handlers, 'listFlips', { studyId });
        const first = flips.ok ? (flips.value as { repId: string }[])[0] : undefined;
        const pair = await dispatchLabCall(local.handlers, 'loadRepPair', { repA: first?.repId });
        rationale = pair.ok ? (pair.value as { a: { rationale: string } }).a.rationale : '';
      }),
  });
  ({ page } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const panel = () => page.getByTestId('reps-panel');
const rows = () => panel().locator('tbody tr');
const count = () => panel().locator('.reps-count p');
const noSidewaysScroll = () =>
  page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    const boxes = [root, ...document.querySelectorAll<HTMLElement>('.reps-panel, .reps-scroll')];
    return boxes.every((box) => box.scrollWidth <= box.clientWidth);
  });

describe('reps workbench', () => {
  test('lists every rep, filters, searches and sorts', async () => {
    await session!.goto(`#/results/${studyId}`);
    await page.getByRole('button', { name: 'All reps' }).click();
    await expect.poll(() => count().innerText()).toBe('6 reps');
    await panel().getByText('SIMULATED').waitFor();
    expect(await noSidewaysScroll()).toBe(true);

    await panel().getByLabel('Flipped').selectOption('harmful');
    await expect.poll(() => count().innerText()).toBe('3 reps');
    expect(await rows().locator('.badge-harmful').count()).toBe(3);
    await panel().getByLabel('Flipped').selectOption('no');
    await expect.poll(() => rows().locator('.badge-harmful').count()).toBe(0);
    expect(await count().innerText()).toBe('3 reps');
    await panel().getByLabel('Flipped').selectOption('');
    await panel().getByLabel('Verdict').selectOption('none');
    await panel().getByText('No stored reps match this selection.').waitFor();
    await panel().getByLabel('Verdict').selectOption('');
    const mechanisms = await panel().getByLabel('Mechanism').locator('option').allInnerTexts();
    expect(mechanisms.length).toBeGreaterThan(1);
    await panel()
      .getByLabel('Mechanism')
      .selectOption(mechanisms[1] as string);
    await expect.poll(async () => (await rows().allInnerTexts()).length).toBeGreaterThan(0);
    for (const text of await rows().allInnerTexts()) expect(text).toContain(mechanisms[1]);
    await panel().getByLabel('Mechanism').selectOption('');

    // Type a few words of a cued rep's rationale, in capitals, from the keyboard.
    const words = rationale.split(/\s+/).slice(0, 3).join(' ').toUpperCase();
    expect(words.length).toBeGreaterThan(5);
    await panel().getByLabel('Search transcripts and rationales').focus();
    await page.keyboard.type(words);
    await expect.poll(() => count().innerText()).toMatch(/^[1-6] reps$/);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('zq no transcript says this');
    await panel().getByText('No stored reps match this selection.').waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await expect.poll(() => count().innerText()).toBe('6 reps');

    await panel().getByRole('button', { name: /^Rep/ }).click();
    await panel().getByRole('button', { name: /^Rep/ }).click();
    await expect
      .poll(() => panel().locator('th[aria-sort="descending"]').innerText())
      .toContain('Rep');
    // The rows arrive after the header changes: wait for the engine's order.
    await expect
      .poll(async () => (await rows().locator('td:nth-child(5)').allInnerTexts()).map(Number))
      .toEqual([3, 3, 2, 2, 1, 1]);
    await saveScreenshot(page, 'workbench-reps-1024');
  });

  test('opens a transcript, then two reps side by side', async () => {
    await rows().first().getByRole('button').click();
    const transcript = page.getByTestId('rep-transcript');
    await transcript.getByTestId('rep-verdict').waitFor();
    expect(await transcript.innerText()).toContain('Prompt');
    await page.keyboard.press('Enter'); // "Back to the reps" has the focus
    await expect.poll(() => count().innerText()).toBe('6 reps');

    await panel().getByLabel('Flipped').selectOption('');
    const boxes = rows().getByRole('checkbox');
    await boxes.nth(0).focus();
    await page.keyboard.press('Space');
    await boxes.nth(5).check();
    await panel().getByRole('button', { name: 'Side by side (2/2)' }).click();
    const side = page.getByTestId('rep-side-by-side');
    await side.getByText('SIMULATED').waitFor();
    await side.getByTestId('rep-verdict').nth(1).waitFor();
    expect(await side.getByTestId('rep-verdict').count()).toBe(2);
    expect(await side.innerText()).toMatch(/Same tool calls|diverge at row/);
    expect(await noSidewaysScroll()).toBe(true);
    await saveScreenshot(page, 'workbench-side-by-side-1024');
    await page.keyboard.press('Escape');
    await panel().waitFor({ state: 'detached' });
  });
});
