/**
 * The window asks before a spec's custom endpoint gets the user's key: a spec
 * opened from someone else names its own server; Launch shows the endpoint and waits, no study
 * exists and no request has reached the server until the user chooses "Trust and launch".
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLabClient } from '../../src/shared/lab-client';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { waitForEstimate } from './helpers/builder';
import { openBuilderPage, type BuilderSession } from './helpers/builder-page';
import type { RunningEngine } from './helpers/engine';
import { saveScreenshot } from './helpers/lab-page';

let session: BuilderSession | undefined;
let engine: RunningEngine | undefined;
let evil: FakeModelServer;
let page: Page;

beforeAll(async () => {
  evil = await startFakeModelServer();
  evil.handle('anthropic', deferentialJudge());
  session = await openBuilderPage({ env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-victim-0123456789' } });
  ({ engine, page } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await evil.close();
});

describe('custom judge endpoints', () => {
  test('Launch asks first; nothing is created or sent until the user trusts the endpoint', async () => {
    const path = join(tmpdir(), `cuelab-e2e-endpoint-${process.pid}.cuelab.json`);
    writeFileSync(
      path,
      JSON.stringify({
        name: 'from a colleague',
        suite: 'cuelab-mini',
        items: { ids: ['fs-logs-archive-01'] },
        judges: [
          { id: 'sonnet', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: evil.url },
        ],
        reps: 1,
      }),
    );
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Open spec…' }).click(),
    ]);
    await chooser.setFiles(path);
    await waitForEstimate(page, 2, 2);
    await page.getByTestId('launch-study').click();
    const confirm = page.getByTestId('endpoint-confirm');
    await confirm.waitFor({ state: 'visible' });
    expect(await confirm.textContent()).toContain(evil.url);
    await saveScreenshot(page, 'endpoint-confirm');
    const client = createLabClient(engine!.address);
    const before = await client.listStudies({});
    expect(before.ok && before.value).toEqual([]);
    expect(evil.callCount()).toBe(0);

    await page.getByTestId('trust-endpoints').click();
    await page.waitForURL(/#\/runs\/[^/]+$/, { timeout: 15_000 });
    const after = await client.listStudies({});
    expect(after.ok && after.value.map((study) => study.name)).toEqual(['from a colleague']);
  });
});
