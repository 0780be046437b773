/**
 * An exported log opened in Inspect's own log viewer (the `@metrevals/inspect-log-viewer`
 * package, built from inspect_ai's viewer): a tiny host page (inspect-viewer-host/) is bundled
 * with vite at test time and served, with the exported logs and a `listing.json` as
 * `inspect view bundle` lays them out, from a local HTTP server; Chromium opens a sample and
 * the Transcript tab shows its model and tool events.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportInspectLogs } from '../../src/main/engine/export/inspect-log';
import { openStore } from '../../src/main/engine/store/database';
import { deferring, runStudy, suite } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { studySpecSchema } from '../../src/shared/study-spec';
import { makeTempDir } from '../helpers/temp-dir';

const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};

describe("an Inspect export in Inspect's own viewer", { timeout: 300_000 }, () => {
  const dir = makeTempDir();
  const site = join(dir.path, 'site');
  let server: Server;
  let url = '';

  beforeAll(async () => {
    await build({
      root: join(__dirname, 'inspect-viewer-host'),
      base: './',
      logLevel: 'error',
      configFile: false,
      build: { outDir: site, emptyOutDir: true },
    });
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    try {
      exportInspectLogs(store, await runStudy(store), join(site, 'logs'));
      // A study with two placements: each placement of the cue is its own log.
      const file = suite();
      const spec = studySpecSchema.parse({
        name: 'viewer placements',
        suite: file.id,
        judges: [{ id: 'only', provider: 'synthetic', model: 'synthetic', persona: deferring.id }],
        reps: 2,
        arms: { cues: [{ kind: 'preset', preset: 'strong' }], placements: ['system', 'user'] },
      });
      exportInspectLogs(
        store,
        await runSyntheticStudy(store, spec, file.items, deferring),
        join(site, 'logs'),
      );
    } finally {
      store.close();
    }
    // inspect view bundle's manifest: each log's header (the log without samples) by file name.
    const listing: Record<string, unknown> = {};
    for (const name of readdirSync(join(site, 'logs'))) {
      const { samples: _samples, ...header } = JSON.parse(
        readFileSync(join(site, 'logs', name), 'utf8'),
      ) as Record<string, unknown>;
      listing[name] = header;
    }
    writeFileSync(join(site, 'logs', 'listing.json'), JSON.stringify(listing));
    server = createServer((request, response) => {
      const path = resolve(
        site,
        `.${decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)}`,
      );
      if (!path.startsWith(site) || !existsSync(path) || !extname(path)) {
        response.statusCode = 404;
        response.end();
        return;
      }
      response.setHeader('content-type', types[extname(path)] ?? 'application/octet-stream');
      response.end(readFileSync(path));
    }).listen(0, '127.0.0.1');
    await new Promise((ready) => server.once('listening', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`;
  }, 300_000);
  afterAll(() => {
    server?.close();
    dir.remove();
  });

  it("shows a sample's transcript events (model calls and tool calls)", async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(url);
      await page.getByText('_bundle-study-').first().click();
      await page.getByText('Task given to the agent').first().click();
      await page.getByText('Transcript', { exact: true }).first().click();
      // The events list: a model event per judge turn, a tool event per call.
      await page.getByText('Model Call', { exact: false }).first().waitFor();
      const events = page.locator('text=/^Tool: read_file$/i');
      await events.first().waitFor();
      expect(await events.count()).toBeGreaterThan(0);
      mkdirSync(join(__dirname, '..', '..', 'test-results'), { recursive: true });
      await page.screenshot({
        path: join(__dirname, '..', '..', 'test-results', 'inspect-viewer-transcript.png'),
      });
    } finally {
      await browser.close();
    }
  });

  it('lists each placement of a cue as its own log, whose sample opens with its transcript', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(url);
      const system = page.getByText(/viewer-placements-only-.*-system_/).first();
      const user = page.getByText(/viewer-placements-only-.*-user_/).first();
      await system.waitFor();
      await user.waitFor();
      await user.click();
      // The user-placement log's sample opens, its transcript with it.
      await page.getByText('Task given to the agent').first().click();
      await page.getByText('Transcript', { exact: true }).first().click();
      await page.getByText('Model Call', { exact: false }).first().waitFor();
      mkdirSync(join(__dirname, '..', '..', 'test-results'), { recursive: true });
      await page.screenshot({
        path: join(__dirname, '..', '..', 'test-results', 'inspect-viewer-placement.png'),
      });
    } finally {
      await browser.close();
    }
  });
});
