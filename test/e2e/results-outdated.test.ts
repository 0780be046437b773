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
import type { Store } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { deferring, runStudy, suite } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { landReps, persistBeforeLastReps } from '../helpers/interrupted-study';
import { saveScreenshot } from './helpers/lab-page';
import { withLocalEngine } from './helpers/local-engine';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';

let studyId = '';
/** A study whose names (study, judge, item, dataset, mitigation) are 120 characters, no spaces. */
let longStudyId = '';
let session: WorkspaceSession | undefined;
let page: Page;

const long = (prefix: string) => `${prefix}${'x'.repeat(120 - prefix.length)}`;

/** The bundle study's item and judge under 120-character names, with a mitigation of its own. */
async function longNamesStudy(store: Store): Promise<string> {
  const base = suite();
  const [item] = base.items;
  if (!item) throw new Error('The bundle suite has no item.');
  const file = suiteFileSchema.parse({
    ...base,
    id: 'long-names-suite',
    items: [{ ...item, id: long('item-'), dataset: long('dataset-') }],
  });
  saveSuite(store, file, 'imported');
  const judge = { id: long('vendor/'), provider: 'synthetic', model: 'synthetic' };
  const mitigation = { kind: 'custom', id: long('mitigation-'), label: long('Label') };
  const spec = studySpecSchema.parse({
    name: long('study-'),
    suite: file.id,
    judges: [{ ...judge, persona: deferring.id }],
    reps: 3,
    arms: { mitigations: [[], [{ ...mitigation, systemText: 'Be careful.' }]] },
  });
  return runSyntheticStudy(store, spec, file.items, deferring);
}

beforeAll(async () => {
  let held: number[] = [];
  let longHeld: number[] = [];
  session = await openWorkspaceSession({
    name: 'outdated',
    viewport: { width: 1024, height: 700 },
    fill: async (workspace) => {
      await withLocalEngine(workspace, async (local) => {
        studyId = await runStudy(engineStore(local));
        longStudyId = await longNamesStudy(engineStore(local));
      });
      // Six reps; the tables are persisted from the first four.
      ({ held } = await persistBeforeLastReps(workspace, studyId, 2));
      ({ held: longHeld } = await persistBeforeLastReps(workspace, longStudyId, 2));
    },
  });
  ({ page } = session);
  // The warm pass lists stale studies first in the reports lane; a table drawn there after it
  // means the pass found this study current and is done.
  const client = createLabClient(session.engine.address);
  for (const id of [studyId, longStudyId]) {
    const answer = await client.reportTable({ studyId: id, table: 'card' });
    expect(answer.ok).toBe(true);
  }
  landReps(session.engine.workspace, [...held, ...longHeld]);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

/**
 * Holds the page's requests for current tables (no `current` field) until `release`. The first
 * out-of-date answer starts the drawing, and a request the engine meets after it ends is
 * answered current; so the flips table's is let through first, and the others only once it is
 * answered: flips is shown as last drawn whatever the order the requests leave in.
 */
async function holdCurrentTables(): Promise<{ held: Route[]; release: () => Promise<void> }> {
  const held: Route[] = [];
  let holding = true;
  let flipsAnswered: () => void = () => undefined;
  const flipsFirst = new Promise<void>((resolve) => (flipsAnswered = resolve));
  await page.route('**/api/reportTable', async (route) => {
    const body = route.request().postData() ?? '';
    if (holding && !body.includes('"current"')) held.push(route);
    else if (body.includes('"table":"flips"')) {
      await route.fulfill({ response: await route.fetch() });
      flipsAnswered();
    } else {
      await flipsFirst;
      await route.continue();
    }
  });
  return {
    held,
    release: async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
      await page.unroute('**/api/reportTable');
    },
  };
}

/** Where `testId`'s box reaches past `containerSelector`'s, or it scrolls sideways (none: []). */
async function overflows(testId: string, containerSelector: string): Promise<string[]> {
  const box = await page.getByTestId(testId).boundingBox();
  const container = await page.locator(containerSelector).first().boundingBox();
  if (!box || !container) return [`${testId} or ${containerSelector} is not on screen`];
  const faults: string[] = [];
  if (box.x < container.x - 1) faults.push(`${testId} starts left of ${containerSelector}`);
  if (box.x + box.width > container.x + container.width + 1)
    faults.push(`${testId} ends right of ${containerSelector}`);
  const sideways = await page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    const main = document.querySelector<HTMLElement>('main');
    return [root, main].some((element) => element && element.scrollWidth > element.clientWidth);
  });
  if (sideways) faults.push('the page scrolls sideways');
  return faults;
}

describe('an interrupted study on the Results page', () => {
  test('shows the tables as last drawn under a banner, then the current ones', async () => {
    const { held, release } = await holdCurrentTables();

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

    await release();
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByText('n = 6 reps analysed').waitFor();
    expect(await page.getByTestId('export-flips-png').isDisabled()).toBe(false);
    expect(await page.getByRole('alert').count()).toBe(0);
    await saveScreenshot(page, 'results-outdated-replaced-1440');
  });

  test('keeps the banner and the page inside the window with 120-character names', async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const { held, release } = await holdCurrentTables();
    await session!.goto(`#/results/${longStudyId}`);
    const banner = page.getByTestId('tables-outdated');
    await banner.waitFor({ state: 'visible', timeout: 15_000 });
    await page.locator('[data-testid="chart-flips"][data-filled="true"]').waitFor();
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await banner.innerText()).toMatch(/; updating…$/);
    await saveScreenshot(page, 'results-outdated-long-names-1024');
    expect(await overflows('tables-outdated', '.results-page')).toEqual([]);
    await release();
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
  });
});
