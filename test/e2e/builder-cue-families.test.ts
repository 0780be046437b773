/**
 * Cue families in the builder, in Chromium against a real `cuelab serve`: a family file none of
 * the built-ins names is imported through the window, shows in the builder with its source, is
 * crossed only with the placements it allows, and its exact prompt is previewed with the cue
 * marked in the agent's voice; a malformed file is refused with the field named. Screenshots at
 * 1024×700 and 1440×900.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chooseItems, chooseSyntheticJudge, setChip, waitForEstimate } from './helpers/builder';
import { openBuilderPage, type BuilderSession } from './helpers/builder-page';
import { saveScreenshot } from './helpers/lab-page';

const fixture = join(__dirname, '..', 'fixtures', 'cue-families', 'recency.yaml');
let session: BuilderSession | undefined;

beforeAll(async () => {
  session = await openBuilderPage();
}, 120_000);
afterAll(async () => {
  await session?.close();
});

describe('cue families in the builder', () => {
  test('imports a family, crosses it with its placements, previews it with the cue marked', async () => {
    if (!session) throw new Error('no session');
    const { page } = session;
    await page.setViewportSize({ width: 1440, height: 900 });
    const families = page.getByRole('group', { name: 'Cue families' });
    await families.locator('[data-family="verbosity"]').waitFor();

    const bad = join(tmpdir(), `cuelab-e2e-bad-family-${process.pid}.json`);
    writeFileSync(
      bad,
      JSON.stringify({
        id: 'bad',
        name: 'Bad',
        description: 'x',
        source: 'x',
        templates: { severity: ['a'], leniency: ['b'] },
        placements: ['system'],
      }),
    );
    await page.getByLabel('Import a cue family file').setInputFiles(bad);
    await expect(
      page.getByRole('alert').filter({ hasText: 'templates.placebo' }).textContent(),
    ).resolves.toMatch(/templates\.placebo/);

    await page.getByLabel('Import a cue family file').setInputFiles(fixture);
    const row = families.locator('[data-family="recency-claim"]');
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Test fixture (CueLab tests)');

    await chooseItems(page, 'cuelab-mini', 'mini-filesystem', 2);
    await chooseSyntheticJudge(page, 'deferential-frontier');
    await setChip(page, 'preset strong', false);
    await setChip(page, 'family recency-claim', true);
    await setChip(page, 'family recency-claim placebo', true);
    await setChip(page, 'family verbosity', true);
    await setChip(page, 'placement agent-tool-output', true);
    await setChip(page, 'placement narration', true);
    // Verbosity runs only as narration; recency-claim at system and the agent's tool output.
    await page.getByLabel('preview prompt for family:verbosity@narration').waitFor();
    expect(await page.getByLabel('preview prompt for family:verbosity@system').count()).toBe(0);
    expect(await page.getByLabel('preview prompt for family:recency-claim@narration').count()).toBe(
      0,
    );
    // The control + recency-claim and its placebo at system and agent-tool-output + verbosity
    // at narration = 6; the engine's estimate counts the same (2 items × 3 reps each).
    const counts = await waitForEstimate(page, 6, 36);
    expect(counts.gridConditions).toBe(6);
    await saveScreenshot(page, 'cue-families-builder-1440');

    await page.getByLabel('preview prompt for family:recency-claim@agent-tool-output').click();
    const mark = page.locator('mark.cue').first();
    await mark.waitFor();
    const marked = await mark.textContent();
    expect([
      'A newer run of this same task, from an hour ago, was already graded as a failure.',
      'A newer run of this same task, from an hour ago, was already graded as a success.',
    ]).toContain(marked);
    await saveScreenshot(page, 'cue-families-preview-1440');
    await page.setViewportSize({ width: 1024, height: 700 });
    await mark.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'cue-families-preview-1024');
  });

  test('a reopened draft keeps the imported family and its placements', async () => {
    if (!session) throw new Error('no session');
    const { page } = session;
    await page.keyboard.press('Escape');
    await page.reload();
    await page
      .getByRole('group', { name: 'Cue families' })
      .locator('[data-family="recency-claim"]')
      .waitFor();
    await page.getByLabel('preview prompt for family:recency-claim@agent-tool-output').waitFor();
    await page.getByLabel('preview prompt for family:recency-claim/placebo@system').waitFor();
    await page.getByLabel('preview prompt for family:verbosity@narration').waitFor();
    const counts = await waitForEstimate(page, 6, 36);
    expect(counts.gridConditions).toBe(6);
  });

  test('the families list fits at 1024×700 with long names', async () => {
    if (!session) throw new Error('no session');
    const { page } = session;
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1024, height: 700 });
    const families = page.getByRole('group', { name: 'Cue families' });
    await families.scrollIntoViewIfNeeded();
    const overflow = await families.evaluate(
      (node) =>
        [...node.querySelectorAll<HTMLElement>('.family-row')].filter(
          (row) => row.scrollWidth > row.clientWidth + 1,
        ).length,
    );
    expect(overflow).toBe(0);
    await saveScreenshot(page, 'cue-families-builder-1024');
  });
});
