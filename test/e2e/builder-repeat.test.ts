/**
 * The Builder's uncued-repeat checkbox in Chromium against a real `cuelab serve`: reached with
 * the keyboard, it adds the `uncued+repeat` arm to the engine's estimate and the prompt
 * preview, and the study it launches plans and queues that arm. Screenshots at 1024×700 and
 * 1440×900.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLabClient } from '../../src/shared/lab-client';
import { chooseItems, chooseSyntheticJudge, setNumber, waitForEstimate } from './helpers/builder';
import { openBuilderPage, type BuilderSession } from './helpers/builder-page';
import { saveScreenshot } from './helpers/lab-page';

let session: BuilderSession | undefined;
let page: Page;

const repeatLabel = /Run the uncued control twice/;

beforeAll(async () => {
  session = await openBuilderPage();
  ({ page } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('the uncued repeat in the builder', () => {
  test('the checkbox is reached by keyboard and adds the arm to the estimate', async () => {
    await chooseItems(page, 'cuelab-mini', 'mini-filesystem', 2);
    await chooseSyntheticJudge(page, 'deferential-frontier');
    await setNumber(page, 'Reps per arm', 1);
    // 2 items × 1 rep: the control and strong@system.
    await waitForEstimate(page, 2, 4);
    const box = page.getByRole('checkbox', { name: repeatLabel });
    expect(await box.isChecked()).toBe(false);
    // From the button before it (the mitigated-control box is disabled without a mitigation).
    await page.getByRole('button', { name: 'Add mitigation set' }).focus();
    await page.keyboard.press('Tab');
    await expect(box.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Space');
    expect(await box.isChecked()).toBe(true);
    const counts = await waitForEstimate(page, 3, 6);
    // The builder's own grid counts the repeat as a second control, as the engine does.
    expect(counts.gridConditions).toBe(3);
    await page
      .getByTestId('condition-grid')
      .getByRole('rowheader', { name: 'uncued repeat' })
      .waitFor();
    await page
      .getByTestId('estimate')
      .getByText(/the control run twice/)
      .waitFor();

    for (const [width, height] of [
      [1024, 700],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await box.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `builder-repeat-${width}`);
    }
  });

  test('the prompt preview offers the repeat with the control’s prompt', async () => {
    await page.getByRole('button', { name: 'preview prompt for preset:strong@system' }).click();
    const preview = page.getByTestId('prompt-preview');
    const condition = preview.getByRole('combobox', { name: 'Condition' });
    await condition.selectOption('uncued+repeat');
    await preview.locator('.prompt-block').first().waitFor();
    expect(await preview.locator('mark.cue').count()).toBe(0);
    await expect(preview.getByRole('radio', { name: 'severity' }).isDisabled()).resolves.toBe(true);
  });

  test('the launched study plans and queues the repeat', async () => {
    await page.getByRole('heading', { level: 1, name: 'Builder' }).click();
    await page.keyboard.press('Control+Enter');
    await page.waitForURL(/#\/runs\/[^/]+$/, { timeout: 15_000 });
    const studyId = decodeURIComponent(new URL(page.url()).hash.replace('#/runs/', ''));
    const client = createLabClient(session!.engine.address);
    const spec = await client.getStudySpec({ studyId });
    expect(spec.ok && spec.value.arms.uncuedRepeat).toBe(true);
    const progress = await client.studyProgress({ studyId });
    if (!progress.ok) throw new Error(progress.error.message);
    const repeat = progress.value.arms.find((arm) => arm.key === 'uncued+repeat');
    expect(repeat?.label).toBe('uncued repeat (test-retest)');
    const jobs = repeat ? repeat.queued + repeat.running + repeat.done + repeat.failed : 0;
    expect(jobs).toBe(2);
    await page.locator('[data-testid="arm-progress"][data-key="uncued+repeat"]').waitFor();
    await page.setViewportSize({ width: 1440, height: 900 });
    await saveScreenshot(page, 'builder-repeat-runs-1440');
    await client.controlStudy({ studyId, action: 'cancel' });
  });
});
