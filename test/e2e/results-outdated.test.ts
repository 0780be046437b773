/**
 * The Results page of a study whose last reps landed after its tables were persisted (a run
 * interrupted by quitting), in Chromium against a real `cuelab serve`: the tables as last drawn
 * are shown at once under a banner saying what they cover, and the current tables replace them
 * when the engine has drawn them. The window's requests for the current tables are held until
 * the test lets them go, so the banner is asserted and screenshotted at a known moment (1024×700
 * and 1440×900), never raced.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { engineStore } from '../../src/main/engine/engine-store';
import { createLabClient } from '../../src/shared/lab-client';
import { runStudy } from '../helpers/bundle-study';
import { landReps, persistBeforeLastReps } from '../helpers/interrupted-study';
import { saveScreenshot } from './helpers/lab-page';
import { withLocalEngine } from './helpers/local-engine';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';

let studyId = '';
let session: WorkspaceSession | undefined;
let page: Page;

beforeAll(async () => {
  let held: number[] = [];
  session = await openWorkspaceSession({
    name: 'outdated',
    viewport: { width: 1024, height: 700 },
    fill: async (workspace) => {
      studyId = await withLocalEngine(workspace, (local) => runStudy(engineStore(local)));
      // Six reps; the tables are persisted from the first four.
      ({ held } = await persistBeforeLastReps(workspace, studyId, 2));
    },
  });
  ({ page } = session);
  // The warm pass lists stale studies first in the reports lane; a table drawn there after it
  // means the pass found this study current and is done.
  const answer = await createLabClient(session.engine.address).reportTable({
    studyId,
    table: 'card',
  });
  expect(answer.ok).toBe(true);
  landReps(session.engine.workspace, held);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('an interrupted study on the Results page', () => {
  test('shows the tables as last drawn under a banner, then the current ones', async () => {
    // Requests for the current tables (no `current` field) wait here until released.
    const held: Route[] = [];
    let holding = true;
    await page.route('**/api/reportTable', async (route) => {
      const body = route.request().postData() ?? '';
      if (holding && !body.includes('"current"')) held.push(route);
      else await route.continue();
    });

    await session!.goto(`#/results/${studyId}`);
    const banner = page.getByTestId('tables-outdated');
    await banner.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await banner.innerText()).toMatch(/^Drawn from 4 of 6 reps at .+; updating…/);
    await page.locator('[data-testid="chart-flips"][data-filled="true"]').waitFor();
    // The drawing ended and the page asked for the current tables: held, so the banner stays.
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await banner.innerText()).toMatch(/; updating…$/);
    await page.getByText('n = 4 reps analysed').waitFor();
    // A figure of an out-of-date table is never exported; its CSV comes from the engine, current.
    expect(await page.getByTestId('export-flips-png').isDisabled()).toBe(true);
    expect(await page.getByTestId('export-flips-csv').isDisabled()).toBe(false);
    await saveScreenshot(page, 'results-outdated-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await saveScreenshot(page, 'results-outdated-1440');

    holding = false;
    for (const route of held.splice(0)) await route.continue();
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByText('n = 6 reps analysed').waitFor();
    expect(await page.getByTestId('export-flips-png').isDisabled()).toBe(false);
    expect(await page.getByRole('alert').count()).toBe(0);
    await saveScreenshot(page, 'results-outdated-replaced-1440');
  });
});
