/**
 * The Builder names a judge by its model id as it is, and a name the spec would refuse is
 * flagged at the judge's own row (not only in the estimate panel), in Chromium against a real
 * `cuelab serve`. Screenshots at 1024x700 and 1440x900 land in test-results/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBuilderPage, type BuilderSession } from './helpers/builder-page';
import { saveScreenshot } from './helpers/lab-page';

const modelId = 'anthropic/claude-3-7-sonnet-20250219-thinking-16k';
let session: BuilderSession | undefined;

beforeAll(async () => {
  session = await openBuilderPage();
}, 120_000);
afterAll(async () => {
  await session?.close();
});

describe('Builder: judge names', () => {
  it('takes a model id as the name and flags a refused name at the judge row', async () => {
    const page = session!.page;
    await page.setViewportSize({ width: 1024, height: 700 });
    const judge = page.getByRole('group', { name: 'Judge 1' });
    await judge.getByRole('combobox', { name: 'Provider' }).selectOption('openai-compatible');
    await judge.getByRole('combobox', { name: 'Model' }).fill(modelId);
    const name = page.getByTestId('judge-name-0');
    await expect(name.inputValue()).resolves.toBe(modelId);
    expect(await name.getAttribute('aria-invalid')).toBe('false');
    expect(await page.getByTestId('judge-problem-0').count()).toBe(0);

    await name.fill(` ${modelId}`);
    const problem = page.getByTestId('judge-problem-0');
    await problem.waitFor({ state: 'visible' });
    expect(await problem.textContent()).toBe(
      'Judge name: a judge name cannot start or end with a space.',
    );
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await judge.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'builder-judge-name-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await judge.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'builder-judge-name-1440');

    await name.fill(modelId);
    await problem.waitFor({ state: 'detached' });
  }, 60_000);
});
