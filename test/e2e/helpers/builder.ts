/**
 * Drives the builder like a person: the suite, items by filter and checkbox, one synthetic
 * judge, presets and placements, and reads what the estimate panel and the grid say.
 */
import type { Page } from 'playwright-core';
import { numberAttribute } from './lab-page';

/** What the builder shows about the design. */
export interface DesignCounts {
  /** Conditions the engine's estimate counts. */
  estimateConditions: number;
  /** Reps the engine's estimate counts. */
  totalReps: number;
  /** Conditions the builder's own grid counts. */
  gridConditions: number;
}

/** Picks a suite and ticks the first `count` items of one dataset (after "Select none"). */
export async function chooseItems(
  page: Page,
  suiteId: string,
  dataset: string,
  count: number,
): Promise<string[]> {
  await page.getByRole('combobox', { name: 'Suite', exact: true }).selectOption(suiteId);
  await page.getByRole('group', { name: 'Dataset' }).getByText(dataset, { exact: true }).click();
  await page.getByRole('button', { name: 'Select none' }).click();
  const boxes = page.getByRole('group', { name: 'Items' }).getByRole('checkbox');
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const box = boxes.nth(index);
    await box.check();
    ids.push((await box.getAttribute('aria-label')) ?? '');
  }
  return ids;
}

/** Makes the design's only judge the synthetic judge with a persona. */
export async function chooseSyntheticJudge(page: Page, persona: string): Promise<void> {
  const judge = page.getByRole('group', { name: 'Judge 1' });
  await judge.getByRole('combobox', { name: 'Provider' }).selectOption('synthetic');
  await judge.getByRole('combobox', { name: 'Persona' }).selectOption(persona);
}

/** Sets a checkbox chip (a preset, a placement, an axis level) by its accessible name. */
export async function setChip(page: Page, name: string, checked: boolean): Promise<void> {
  await page.getByRole('checkbox', { name, exact: true }).setChecked(checked);
}

/** Sets a number field of the launch column, e.g. "Reps per arm". */
export async function setNumber(page: Page, label: string, value: number): Promise<void> {
  await page.getByRole('spinbutton', { name: label, exact: true }).fill(String(value));
}

/**
 * Waits until the engine's estimate has caught up with the design and reports `conditions`
 * and `totalReps`; returns what estimate and grid say.
 */
export async function waitForEstimate(
  page: Page,
  conditions: number,
  totalReps: number,
): Promise<DesignCounts> {
  const estimate = page.locator(
    `[data-testid="estimate"][data-state="loaded"][data-conditions="${conditions}"][data-total-reps="${totalReps}"]`,
  );
  await estimate.waitFor({ state: 'visible', timeout: 15_000 });
  return {
    estimateConditions: await numberAttribute(estimate, 'data-conditions'),
    totalReps: await numberAttribute(estimate, 'data-total-reps'),
    gridConditions: await numberAttribute(page.getByTestId('condition-count'), 'data-conditions'),
  };
}
