/**
 * The Runs screen tells retries and how reps ended apart: a workspace
 * whose study has one rep per outcome (verdict, invalid_verdict, budget_exhausted) and one
 * being retried after a 500, served by a real `cuelab serve`, opened in Chromium.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseStudy } from '../../src/main/engine/store/study-state';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, shellJudge } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { launchBrowser, type LabBrowser } from './helpers/browser';
import { startEngine, type RunningEngine } from './helpers/engine';
import { saveScreenshot, waitConnected } from './helpers/lab-page';
import { engineStore } from '../../src/main/engine/engine-store';

let server: FakeModelServer;
let dir: ReturnType<typeof makeTempDir>;
let engine: RunningEngine | undefined;
let browser: LabBrowser | undefined;
let studyId = '';

beforeAll(async () => {
  server = await startFakeModelServer();
  dir = makeTempDir();
  const workspace = join(dir.path, 'ws');
  const study = createFaultStudy(workspace, {
    items: 4,
    baseUrl: server.url,
    spec: { arms: { cues: [] } },
  });
  studyId = study.studyId;
  const judge = shellJudge(false);
  server.handle('anthropic', (request) => {
    const prompt = JSON.stringify(request.body.messages);
    if (prompt.includes('(item 1)')) return reply.toolCall('list_dir', { path: '.' }); // never decides
    if (prompt.includes('(item 2)')) return reply.text('Looks fine to me.'); // never a verdict
    if (prompt.includes('(item 4)')) return reply.error(500, { message: 'upstream overloaded' });
    return judge(request);
  });
  const runner = study.runner({ maxAttempts: 4 });
  runner.start();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const row = engineStore(study.engine)
      .db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE study_id = ? AND (state = 'done' OR last_error IS NOT NULL)`,
      )
      .get(studyId) as { n: number };
    if (row.n === 4) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await runner.stop();
  pauseStudy(engineStore(study.engine), studyId);
  study.engine.close();
  engine = await startEngine({ workspace });
  browser = await launchBrowser({ width: 1280, height: 1000 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  await server.close();
  dir.remove();
});

describe('Runs: retries and outcomes', () => {
  it('shows the rep being retried with its error, and done split by outcome', async () => {
    if (!engine || !browser) throw new Error('the engine or Chromium did not start');
    const page = await browser.context.newPage();
    await page.goto(`${engine.url}#/runs/${encodeURIComponent(studyId)}`);
    await waitConnected(page);
    const detail = page.getByTestId('study-detail');
    await detail.waitFor({ state: 'visible', timeout: 15_000 });
    const outcomes = page.getByTestId('outcomes');
    await outcomes.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await outcomes.textContent()).toMatch(
      /1 with a verdict · 1 invalid_verdict · 1 budget_exhausted/,
    );
    const retries = page.getByRole('region', { name: 'Retries in progress' });
    await retries.waitFor({ state: 'visible' });
    expect(await retries.textContent()).toMatch(/server error \(500.*upstream overloaded/);
    expect(await retries.textContent()).toContain('item-4');
    const path = await saveScreenshot(page, 'runs-retries-outcomes');
    expect(path).toMatch(/runs-retries-outcomes\.png$/);
  });
});
