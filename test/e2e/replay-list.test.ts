/**
 * The Replay list's filter, sort and search in Chromium at 1024×700 against a real
 * `cuelab serve`. Before the engine starts, a synthetic study runs with the real
 * runner: two items (one gold pass, one gold fail) judged three times by two judges that always
 * defer to the cue, so every cued rep flips (twelve harmful flips). Then, with the keyboard
 * where a person would use it: filter by judge, sort by judge, search an item id, and open a
 * row's pair, never scrolling sideways. Last, All reps… opens the Results workbench's reps panel.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dispatchLabCall } from '../../src/main/engine/api';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { deferring, suite } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { saveScreenshot } from './helpers/lab-page';
import { withLocalEngine } from './helpers/local-engine';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';
import { engineStore } from '../../src/main/engine/engine-store';

let studyId = '';
let session: WorkspaceSession | undefined;
let page: Page;

/** The bundle suite's item, and a twin whose ledger was never updated (gold fail). */
function twoItemSuite() {
  const base = suite();
  const [item] = base.items;
  if (!item) throw new Error('The bundle suite has no item.');
  const unmarked = {
    ...item,
    id: 'unmarked-ledger',
    environment: { files: { 'archive/inv-001.txt': 'amount: 120.00\n', 'ledger.txt': '' } },
    gold: 'fail',
  };
  return suiteFileSchema.parse({ ...base, id: 'replay-list-suite', items: [item, unmarked] });
}

beforeAll(async () => {
  session = await openWorkspaceSession({
    name: 'replay-list',
    viewport: { width: 1024, height: 700 },
    fill: (workspace) =>
      withLocalEngine(workspace, async (local) => {
        const file = twoItemSuite();
        saveSuite(engineStore(local), file, 'imported');
        const judge = (id: string) => ({
          ...{ id, provider: 'synthetic', model: 'synthetic' },
          persona: deferring.id,
        });
        const spec = studySpecSchema.parse({
          name: 'replay list study',
          suite: file.id,
          judges: [judge('alpha-judge'), judge('beta-judge')],
          reps: 3,
        });
        studyId = await runSyntheticStudy(engineStore(local), spec, file.items, deferring);
        const classified = await dispatchLabCall(local.handlers, 'classifyStudy', { studyId });
        expect(classified.ok).toBe(true);
      }),
  });
  ({ page } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

const rows = () => page.getByTestId('flip-row');
const shown = () => page.getByTestId('flip-shown');
const columnOf = async (index: number) =>
  rows().evaluateAll(
    (elements, cell) =>
      elements.map((row) => (row.children[cell] as HTMLElement).innerText.split('\n')[0] ?? ''),
    index,
  );
const noSidewaysScroll = () =>
  page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    const boxes = [root, ...document.querySelectorAll<HTMLElement>('.flip-list-scroll')];
    return boxes.every((box) => box.scrollWidth <= box.clientWidth);
  });

describe('Replay list', () => {
  test('filters, sorts and searches the flips, and a chosen row opens its pair', async () => {
    await session!.goto(`#/replay/${studyId}`);
    await rows().first().waitFor({ timeout: 15_000 });
    const total = await rows().count();
    expect(total).toBeGreaterThanOrEqual(4);
    await expect.poll(() => shown().innerText()).toBe(`${total} of ${total} shown`);
    expect(await noSidewaysScroll()).toBe(true);

    // By item at first; both judges appear.
    const items = await columnOf(0);
    expect(items).toEqual([...items].sort());
    expect(new Set(await columnOf(1))).toEqual(new Set(['alpha-judge', 'beta-judge']));

    // Filter by judge from the keyboard: Tab from the search box reaches each labelled input.
    await page.getByLabel('Search', { exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    await page.getByLabel('Judge', { exact: true }).selectOption('beta-judge');
    await expect.poll(() => rows().count()).toBeLessThan(total);
    expect(new Set(await columnOf(1))).toEqual(new Set(['beta-judge']));
    await page.getByLabel('Kind', { exact: true }).selectOption('helpful');
    await page.getByText('No flipped rep matches the filter and search.').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => rows().count()).toBe(total);

    // Sort by judge: alpha's flips first, whatever their item.
    await page.getByLabel('Sort by', { exact: true }).selectOption('judge');
    await expect.poll(async () => (await columnOf(1))[0]).toBe('alpha-judge');
    const judges = await columnOf(1);
    expect(judges).toEqual([...judges].sort());
    expect(await columnOf(0)).not.toEqual(items);

    // Search an item id.
    await page.getByLabel('Search', { exact: true }).fill('UNMARKED');
    await expect.poll(async () => new Set(await columnOf(0))).toEqual(new Set(['unmarked-ledger']));
    const found = await rows().count();
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(total);
    await saveScreenshot(page, 'replay-list-1024');
    expect(await noSidewaysScroll()).toBe(true);

    // A chosen row still opens its pair, from the keyboard.
    const row = rows().nth(found - 1);
    const repId = await row.getAttribute('data-rep-id');
    await row.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/replay/${studyId}/${repId}`);
    await page.locator(`[data-testid="flip-pair"][data-rep-id="${repId}"]`).waitFor();
    await expect.poll(() => rows().count()).toBe(found);
    expect(await row.getAttribute('aria-selected')).toBe('true');
  });

  test('All reps… opens the Results reps panel on every rep of the study', async () => {
    await session!.goto(`#/replay/${studyId}`);
    await page.getByRole('link', { name: 'All reps…' }).click();
    const panel = page.getByTestId('reps-panel');
    await panel.waitFor({ timeout: 15_000 });
    await panel.getByText('All reps of this study').waitFor();
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/results/${studyId}`);
  });
});
