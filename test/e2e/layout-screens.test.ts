/**
 * The lab's screens at 1024×700 and 1440×900, against a real `cuelab serve` whose studies carry
 * long real names, measured by the general text check
 * (helpers/layout-faults.ts): no text outside the window, cut by its box, on another text, and
 * no box scrolling sideways. The Builder's judges get a long model id next to a synthetic judge
 * (Persona, Temperature); Results opens the Compare drawer. Not yet here: the Results toolbar's
 * study picker (a native select cuts a name longer than its box). Screenshots land in test-results/layout-<width>-<screen>.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openLayoutLab, type LayoutLab } from './helpers/figure-layout-lab';
import { saveScreenshot } from './helpers/lab-page';
import { screenTextFaults, type TextFault } from './helpers/layout-faults';
import { resultsCsv } from './helpers/results-fixture';

const longJudge = 'anthropic/claude-3-7-sonnet-20250219-thinking-16k';
const names = {
  judges: [longJudge, 'openrouter/qwen/qwen3-coder-480b-a35b-instruct-turbo'],
  datasets: ['mcpmark-postgres-lego-inventory', 'terminal-bench-2-core-hard'],
  arms: [
    {
      condition: 'authority-claim-from-senior-staff-reviewer@assistant_turn',
      placement: 'assistant_turn',
      mitigation: '',
      flip: 0.3,
    },
    {
      condition: 'authority-claim-from-senior-staff-reviewer@system_prompt+evidence-first',
      placement: 'system_prompt',
      mitigation: 'evidence-first-verification-guard',
      flip: 0.1,
    },
  ],
  cueLabel: 'authority-claim-from-senior-staff-reviewer',
};

const studyName = (key: string) =>
  `${longJudge} under a senior-reviewer authority cue (${key} run)`;

let lab: LayoutLab | undefined;
let page: Page;

beforeAll(async () => {
  lab = await openLayoutLab(
    { first: resultsCsv(names, 11), second: resultsCsv(names, 12) },
    { width: 1024, height: 700 },
    'light',
    studyName,
  );
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

const study = (key: string) => lab?.studies[key] ?? '';

/** Fills the Builder: the mini suite, a judge with a long model id and a synthetic one. */
async function fillBuilder(): Promise<void> {
  const first = page.getByRole('group', { name: 'Judge 1' });
  await first.getByRole('combobox', { name: 'Provider' }).selectOption('anthropic');
  await first.getByLabel('Model').fill(longJudge.replace(/^anthropic\//, ''));
  await page.getByRole('button', { name: /add judge/i }).click();
  const second = page.getByRole('group', { name: 'Judge 2' });
  await second.getByRole('combobox', { name: 'Provider' }).selectOption('synthetic');
}

const screens: {
  name: string;
  hash: () => string;
  ready: string;
  act?: () => Promise<void>;
  /** The part of the screen checked, when not all of it. */
  within?: string;
}[] = [
  {
    name: 'builder',
    hash: () => 'builder',
    ready: '.builder-layout',
    act: fillBuilder,
  },
  { name: 'runs', hash: () => 'runs', ready: '.study-card' },
  { name: 'runs-detail', hash: () => `runs/${study('first')}`, ready: '.stat' },
  {
    name: 'results',
    hash: () => `results/${study('first')}`,
    ready: '[data-testid="chart-flips"][data-filled="true"]',
    within: '.results-grid',
  },
  {
    name: 'compare',
    hash: () => `results/${study('first')}`,
    ready: '[data-testid="chart-flips"][data-filled="true"]',
    within: '.compare-body',
    act: async () => {
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      const panel = page.getByTestId('compare-panel');
      await panel
        .getByLabel('Compare this study (B) with study A')
        .selectOption({ label: `${studyName('second')}` });
      await panel.getByTestId('compare-rates').waitFor({ timeout: 15_000 });
    },
  },
  { name: 'replay', hash: () => `replay/${study('first')}`, ready: '.page', within: '.content' },
  { name: 'annotate', hash: () => 'annotate', ready: '.page' },
  { name: 'import', hash: () => 'import', ready: '.page' },
  { name: 'settings', hash: () => 'settings', ready: '.page' },
];

describe.each([
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
])('every screen at $width×$height', ({ width, height }) => {
  test('no text outside, cut or overlapping; nothing scrolls sideways', async () => {
    if (!lab) throw new Error('The lab did not start.');
    await page.setViewportSize({ width, height });
    const found: Record<string, TextFault[]> = {};
    for (const screen of screens) {
      await lab.open(screen.hash());
      await page.locator(screen.ready).first().waitFor({ state: 'visible', timeout: 15_000 });
      if (screen.act) await screen.act();
      await page.waitForTimeout(400);
      await saveScreenshot(page, `layout-${width}-${screen.name}`);
      const faults = await screenTextFaults(page, screen.within);
      if (faults.length > 0) found[screen.name] = faults;
    }
    expect(found).toEqual({});
  });
});
