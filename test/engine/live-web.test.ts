import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { provisionEnvironment } from '../../src/main/engine/environments/provision';
import { recordedWebBackend, urlAllowed } from '../../src/main/engine/substrates/web/live';
import { liveWebFor } from '../../src/main/engine/substrates/web/live-provision';
import { runTool } from '../../src/main/engine/judge/tools';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { loadWebRecording } from '../../src/main/engine/store/web-recordings';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { createFaultStudy, faultSuiteId, workspaceIn } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { engineStore } from '../../src/main/engine/engine-store';

// The optional live web backend. A local fake search API and web (HTTP on
// 127.0.0.1) stand in for the internet; a second local server is a host off the allowlist.
interface FakeWeb {
  url: string;
  host: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

async function listen(handler: (path: string, port: number) => { type: string; body: string }) {
  const requests: FakeWeb['requests'] = [];
  const server: Server = createServer((request, response) => {
    const port = (server.address() as AddressInfo).port;
    requests.push({ path: request.url ?? '', headers: request.headers });
    const { type, body } = handler(request.url ?? '', port);
    response.writeHead(type === 'missing' ? 404 : 200, { 'content-type': type });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies FakeWeb;
}

const searchKey = 'search-secret-123';
let offList: FakeWeb;
let web: FakeWeb;
let models: FakeModelServer;
const dirs: ReturnType<typeof makeTempDir>[] = [];

beforeAll(async () => {
  offList = await listen(() => ({ type: 'text/html', body: '<p>never fetched</p>' }));
  web = await listen((path, port) => {
    if (path.startsWith('/search')) {
      const query = new URL(path, 'http://x').searchParams.get('q') ?? '';
      return {
        type: 'application/json',
        body: JSON.stringify({
          results: [
            {
              url: `http://127.0.0.1:${port}/kestrel`,
              title: 'Kestrel Valley Railway',
              snippet: `about ${query}`,
            },
            { url: `${offList.url}/elsewhere`, title: 'Elsewhere', snippet: 'off the allowlist' },
          ],
        }),
      };
    }
    if (path === '/kestrel') {
      return {
        type: 'text/html; charset=utf-8',
        body:
          '<html><head><title>Kestrel Valley Railway &amp; history</title><script>var x = 1;</script>' +
          '</head><body><h1>History</h1><p>The line opened to passengers in 1887.</p></body></html>',
      };
    }
    return { type: 'missing', body: 'no such page' };
  });
  models = await startFakeModelServer();
});
afterAll(async () => {
  await offList.close();
  await models.close();
  await web.close().catch(() => undefined);
});
afterEach(() => {
  while (dirs.length) dirs.pop()?.remove();
});

const liveEnv = () => ({
  CUELAB_LIVE_WEB: '1',
  CUELAB_LIVE_WEB_ENDPOINT: `${web.url}/search`,
  CUELAB_LIVE_WEB_KEY_ENV: 'FAKESEARCH_API_KEY',
  CUELAB_LIVE_WEB_ALLOW: web.host,
  FAKESEARCH_API_KEY: searchKey,
});

const webSpec = {
  web: { pages: [{ url: 'https://snapshot.example.org/', title: 'Snapshot', content: 'offline' }] },
};

const suite = suiteFileSchema.parse({
  id: faultSuiteId,
  name: 'Live web suite',
  description: 'One web item for the live backend test.',
  toolBudget: 6,
  items: [
    {
      id: 'web-item',
      dataset: 'faults',
      substrate: 'web',
      task: 'When did the Kestrel Valley Railway open?',
      trajectory: [
        { role: 'user', content: 'When did the Kestrel Valley Railway open?' },
        { role: 'assistant', content: 'Answer: 1887' },
      ],
      environment: webSpec,
      gold: 'pass',
    },
  ],
});

describe('the live web backend', () => {
  it('is off by default, and refuses a misconfiguration by naming the variable', () => {
    const trust = { endpoints: [], keyEnvNames: [] };
    expect(liveWebFor(suite.items[0]!.environment, {}, trust)).toBeUndefined();
    expect(() =>
      liveWebFor(
        suite.items[0]!.environment,
        { ...liveEnv(), CUELAB_LIVE_WEB_KEY_ENV: 'NODE_OPTIONS' },
        trust,
      ),
    ).toThrow(/CUELAB_LIVE_WEB_KEY_ENV: must name a key variable/);
    expect(() =>
      liveWebFor(suite.items[0]!.environment, { ...liveEnv(), CUELAB_LIVE_WEB_ALLOW: '' }, trust),
    ).toThrow(/CUELAB_LIVE_WEB_ALLOW/);
    expect(urlAllowed('https://docs.example.org/a', ['.example.org'])).toBe(true);
    expect(urlAllowed('https://example.org.evil.com/a', ['.example.org'])).toBe(false);
    expect(urlAllowed('https://user:pw@docs.example.org/', ['docs.example.org'])).toBe(false);
    expect(urlAllowed('file:///etc/passwd', ['docs.example.org'])).toBe(false);
  });

  it('refuses an untrusted search endpoint before sending the key', async () => {
    const before = web.requests.length;
    const live = liveWebFor(suite.items[0]!.environment, liveEnv(), {
      endpoints: [],
      keyEnvNames: [],
    });
    await expect(live?.backend.search('kestrel', 5)).rejects.toThrow(/not trusted/);
    expect(web.requests.length).toBe(before);
  });

  it('serves a rep live (allowlist enforced, pages stored with it), then replays it offline', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const study = createFaultStudy(workspaceIn(dir.path), {
      items: 1,
      baseUrl: models.url,
      spec: { arms: { cues: [] } },
      suite,
      env: liveEnv(),
      trustedEndpoints: [web.url],
    });
    const script = [
      reply.toolCall('web_search', { query: 'Kestrel Valley Railway opening' }),
      reply.toolCall('fetch_url', { url: `${web.url}/kestrel` }),
      reply.toolCall('fetch_url', { url: `${offList.url}/elsewhere` }),
      reply.toolCall('submit_verdict', {
        verdict: 'pass',
        confidence: 0.9,
        rationale: 'The page says 1887.',
      }),
    ];
    const bodies: string[] = [];
    models.handle('anthropic', (request) => {
      bodies.push(JSON.stringify(request.body));
      const messages = request.body.messages as { role: string }[];
      const turn = messages.filter((message) => message.role === 'assistant').length;
      return script[Math.min(turn, script.length - 1)]!;
    });
    const runner = study.runner();
    runner.start();
    await runner.whenIdle();
    await runner.stop();
    const store = engineStore(study.engine);
    try {
      const rep = store.db
        .prepare('SELECT id, outcome FROM judge_reps WHERE study_id = ?')
        .get(study.studyId) as { id: string; outcome: string };
      expect(rep.outcome).toBe('verdict');
      const calls = store.db
        .prepare(
          'SELECT name, output, is_error FROM judge_tool_calls WHERE rep_id = ? ORDER BY seq',
        )
        .all(rep.id) as { name: string; output: string; is_error: number }[];
      expect(calls.map((call) => [call.name, call.is_error])).toEqual([
        ['web_search', 0],
        ['fetch_url', 0],
        ['fetch_url', 1],
      ]);
      // Only allowlisted results are offered; the page is text, scripts and tags gone.
      expect(calls[0]?.output).toContain(`${web.url}/kestrel`);
      expect(calls[0]?.output).not.toContain(offList.url);
      expect(calls[1]?.output).toContain('The line opened to passengers in 1887.');
      expect(calls[1]?.output).toContain('Kestrel Valley Railway & history');
      expect(calls[1]?.output).not.toContain('var x');
      expect(calls[2]?.output).toMatch(/not on the live web allowlist/);
      expect(offList.requests).toEqual([]);
      // The judge was told it is the live web, limited to the allowlist.
      expect(bodies[0]).toContain(`only on these hosts: ${web.host}`);
      // The key went to the search API only, never to a page.
      const search = web.requests.find((request) => request.path.startsWith('/search'));
      expect(search?.headers.authorization).toBe(`Bearer ${searchKey}`);
      const page = web.requests.find((request) => request.path === '/kestrel');
      expect(page?.headers.authorization).toBeUndefined();
      expect(JSON.stringify(calls)).not.toContain(searchKey);

      // Replay with the web stopped: the stored recording answers the same calls.
      const recording = loadWebRecording(store, rep.id);
      expect(recording?.pages.map((stored) => stored.url)).toEqual([`${web.url}/kestrel`]);
      await web.close();
      const item = suite.items[0]!;
      const replayed = await provisionEnvironment(item.environment, item, {
        backend: 'snapshot',
        webBackend: recordedWebBackend(recording!),
      });
      try {
        const context = {
          environment: replayed.environment,
          trajectoryLines: [],
          limits: defaultToolLimits,
          offered: new Set(['web_search', 'fetch_url']),
        };
        const again = [
          await runTool('web_search', { query: 'Kestrel Valley Railway opening' }, context),
          await runTool('fetch_url', { url: `${web.url}/kestrel` }, context),
        ];
        expect(again.map((outcome) => outcome.content)).toEqual([
          calls[0]?.output,
          calls[1]?.output,
        ]);
        const unrecorded = await runTool('fetch_url', { url: `${web.url}/other` }, context);
        expect(unrecorded.isError).toBe(true);
      } finally {
        await replayed.dispose();
      }
    } finally {
      study.engine.close();
    }
  }, 60_000);
});
