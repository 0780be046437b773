/**
 * An imported study with an uncued repeat (`uncued+repeat` rows): the report card table gets
 * "HF beyond repeat" and the figure's tooltip shows it beside the beyond-placebo numbers, at
 * 1024×700 and 1440×900. The repeat is never a bar of its own.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLabClient } from '../../src/shared/lab-client';
import { openLayoutLab, type LayoutLab } from './helpers/figure-layout-lab';
import { screenshotDir } from './helpers/lab-page';
import { resultsCsv } from './helpers/results-fixture';

const arms = [
  ['family:authority@system', 'system', 0.35],
  ['family:authority/placebo@system', 'system', 0.05],
  ['family:fake-verification@agent-tool-output', 'agent-tool-output', 0.4],
  ['family:fake-verification/placebo@agent-tool-output', 'agent-tool-output', 0.05],
] as const;

/** The uncued rows once more as the repeat, every fourth item's verdicts turned over. */
function withRepeat(csv: string): string {
  const lines = csv.trimEnd().split('\n');
  const repeat = lines
    .filter((line) => line.split(',')[3] === 'uncued')
    .map((line) => {
      const cells = line.split(',');
      const index = Number(/-(\d+)$/.exec(cells[0] ?? '')?.[1]);
      if (index % 4 === 1) cells[6] = cells[6] === 'pass' ? 'fail' : 'pass';
      cells[3] = 'uncued+repeat';
      return cells.join(',');
    });
  return `${[...lines, ...repeat].join('\n')}\n`;
}

let lab: LayoutLab | undefined;
let page: Page;

beforeAll(async () => {
  const csv = resultsCsv({
    judges: ['sim-a', 'sim-b'],
    datasets: ['aj-filesystem'],
    arms: arms.map(([condition, placement, flip]) => ({
      condition,
      placement,
      mitigation: '',
      flip,
    })),
    cueLabel: 'family',
  });
  lab = await openLayoutLab({ card: withRepeat(csv) }, { width: 1440, height: 900 });
  page = lab.page;
  await lab.open(`results/${lab.studies.card ?? ''}`);
  await page.locator('[data-testid="chart-card"][data-filled="true"]').waitFor({ timeout: 15_000 });
}, 120_000);

afterAll(async () => {
  await lab?.close();
});

describe('the report card with an uncued repeat', () => {
  test('the card table carries HF beyond repeat and the repeat is no bar', async () => {
    const client = createLabClient(lab!.engine.address);
    const table = await client.reportTable({ studyId: lab!.studies.card ?? '', table: 'card' });
    if (!table.ok) throw new Error(table.error.message);
    const rows = table.value.rows as Record<string, unknown>[];
    expect(rows.map((row) => row.condition)).toEqual([
      'family:authority@system',
      'family:fake-verification@agent-tool-output',
      'family:authority@system',
      'family:fake-verification@agent-tool-output',
    ]);
    const row = rows[0] ?? {};
    expect(typeof row.harmfulBeyondRepeatPp).toBe('number');
    expect(row.harmfulBeyondRepeatCiLow as number).toBeLessThanOrEqual(
      row.harmfulBeyondRepeatPp as number,
    );
  });

  for (const { width, height } of [
    { width: 1024, height: 700 },
    { width: 1440, height: 900 },
  ]) {
    test(`the tooltip shows harmful beyond repeat at ${width} px`, async () => {
      await page.setViewportSize({ width, height });
      const card = page.getByTestId('chart-card');
      await card.scrollIntoViewIfNeeded();
      const bar = card.getByRole('button', { name: /^authority sim-a/ });
      await bar.hover();
      const tooltip = page.getByTestId('chart-tooltip');
      await tooltip.waitFor({ state: 'visible' });
      const text = await tooltip.innerText();
      expect(text).toContain('Harmful beyond placebo');
      expect(text).toMatch(/Harmful beyond uncued repeat\s+[+−]\d+\.\d pp/);
      expect(text).toMatch(/95% CI \(Newcombe\)\s+\[/);
      await page.screenshot({ path: join(screenshotDir, `report-card-repeat-${width}.png`) });
    });
  }
});
