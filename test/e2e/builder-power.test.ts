/**
 * The Builder's power lines in Chromium against a real `cuelab serve`: a synthetic judge's
 * persona gives the baseline (named a simulation in its source), the minimum detectable difference
 * and the items a named change needs are the numbers src/shared/power.ts gives for the engine's
 * estimate, and an entered baseline replaces the persona's.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { itemsNeeded, PAPER_UNCUED_ACCURACY } from '../../src/shared/power';
import {
  chooseItems,
  chooseSyntheticJudge,
  setChip,
  setNumber,
  waitForEstimate,
} from './helpers/builder';
import { openBuilderPage, type BuilderSession } from './helpers/builder-page';
import { saveScreenshot } from './helpers/lab-page';

let session: BuilderSession | undefined;
let page: Page;

beforeAll(async () => {
  session = await openBuilderPage();
  ({ page } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('builder power', () => {
  test('persona baseline, then an entered one, with the items a change needs', async () => {
    await chooseItems(page, 'cuelab-mini', 'mini-filesystem', 6);
    await chooseSyntheticJudge(page, 'deferential-frontier');
    await setChip(page, 'preset strong', true);
    await setChip(page, 'placement system', true);
    await setNumber(page, 'Reps per arm', 3);
    await waitForEstimate(page, 2, 6 * 3 + 6 * 3);
    const power = page.getByTestId('estimate-power');
    await power.getByText(/synthetic persona deferential-frontier, a simulation/).waitFor();
    // Six items cannot detect anything; the panel says so rather than printing a number.
    await expect(page.getByTestId('estimate-mdd').textContent()).resolves.toMatch(
      /No change in harmful-flip rate is detectable/,
    );
    await power.getByRole('spinbutton', { name: /Baseline harmful-flip rate/ }).fill('20');
    await power.getByText('entered here', { exact: false }).waitFor();
    const expected = itemsNeeded(
      { reps: 3, baseline: 0.2, uncuedAccuracy: PAPER_UNCUED_ACCURACY, icc: 0.64 },
      0.1,
    );
    await expect(page.getByTestId('estimate-items-needed').textContent()).resolves.toContain(
      `Needs ${expected} items per judge for 10.0 points`,
    );
    await page.getByTestId('estimate-power').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'builder-power');
  });
});
