/**
 * The graded-flip figure (App. G: a graded cued rep flips when it moves at least the study's
 * threshold from its item's uncued mean) in Chromium against a real `cuelab serve`, on imported
 * 1–100 scores: its bars, whiskers and counts come from the shared bar-end leaf; screenshot in
 * test-results/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from './helpers/engine';
import { openWorkspaceSession, type WorkspaceSession } from './helpers/lab-session';
import { csvStudy } from './helpers/results-fixture';

/** Two judges × eight items: uncued scores near 70, cued ones pulled down by the judge's lean. */
function gradedCsv(): string {
  const lines = ['item_id,dataset,judge,condition,cue_direction,rep,score,dimension,simulated'];
  for (const [judge, pull] of [
    ['judge-a', 30],
    ['judge-b', 8],
  ] as const) {
    for (let item = 1; item <= 8; item += 1) {
      for (let rep = 1; rep <= 3; rep += 1) {
        const base = 66 + ((item * 7 + rep * 3) % 9);
        lines.push(`i${item},ds-a,${judge},uncued,,${rep},${base},completeness,true`);
        const cued = Math.max(1, base - pull + ((item + rep) % 5) * 3 - 6);
        lines.push(
          `i${item},ds-a,${judge},preset:strong@system,severity,${rep},${cued},completeness,true`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

let studyId = '';
let session: WorkspaceSession<string> | undefined;
let page: Page;

beforeAll(async () => {
  session = await openWorkspaceSession({
    name: 'graded',
    viewport: { width: 1280, height: 900 },
    fill: csvStudy(gradedCsv(), 'Graded study'),
  });
  ({ page, filled: studyId } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('graded flips figure', () => {
  test('draws a bar, a whisker and a count per judge', async () => {
    await session!.goto(`#/results/${studyId}`);
    const chart = page.locator('[data-testid="chart-graded"][data-filled="true"]');
    await chart.waitFor({ state: 'visible', timeout: 15_000 });
    const svg = chart.locator('svg');
    expect(await svg.locator('[data-part="whisker"]').count()).toBeGreaterThanOrEqual(2);
    const counts = await svg.locator('[data-part="count"]').allTextContents();
    expect(counts.length).toBeGreaterThanOrEqual(2);
    for (const count of counts) expect(Number(count)).toBeGreaterThan(0);
    await chart.screenshot({ path: join(repoRoot, 'test-results', 'chart-graded-light.png') });
  });
});
