import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { createEngine } from '../../src/main/engine/engine';
import { lastProviderCheck } from '../../src/main/engine/providers/check-store';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { loadSuiteFile } from '../../src/main/engine/suites/load';
import { engineStore } from '../../src/main/engine/engine-store';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { makeTempDir } from '../helpers/temp-dir';

// `cuelab providers check` against fake endpoints: what it reports for each, what it stores,
// and a study that refuses to launch against an endpoint whose check failed.

let hermes: FakeModelServer;
let anthropic: FakeModelServer;
let mute: FakeModelServer;
let dir: ReturnType<typeof makeTempDir>;
const workspace = () => join(dir.path, 'ws');

beforeAll(async () => {
  hermes = await startFakeModelServer({ openaiDialect: 'hermes' });
  hermes.handle('openai', () => reply.toolCall('echo', { text: 'ping' }));
  anthropic = await startFakeModelServer({ promptCache: true });
  anthropic.handle('anthropic', () => reply.toolCall('echo', { text: 'ping' }));
  mute = await startFakeModelServer();
  mute.handle('openai', () => reply.text('I would rather not use tools.'));
  dir = makeTempDir();
});
afterAll(async () => {
  await Promise.all([hermes.close(), anthropic.close(), mute.close()]);
  dir.remove();
});

async function check(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runCli(['providers', 'check', ...args, '--workspace', workspace()], {
    out: (line) => lines.push(line),
    err: (line) => lines.push(line),
  });
  return { code, out: lines.join('\n') };
}

describe('cuelab providers check', () => {
  it('reports the Hermes dialect and reasoning of an open-model server', async () => {
    const result = await check([
      ...['--provider', 'openai-compatible', '--model', 'Qwen/Qwen3-235B-A22B'],
      ...['--base-url', hermes.openaiUrl],
    ]);
    expect(result.out).toContain(
      `OK: openai-compatible Qwen/Qwen3-235B-A22B at ${hermes.openaiUrl}`,
    );
    expect(result.out).toContain('tool calls: yes (hermes)');
    expect(result.out).toContain('reasoning: yes');
    expect(result.out).toMatch(/latency: \d+ ms/);
    expect(result.out).toContain('price: $0 in / $0 out per Mtok');
    expect(result.code).toBe(0);
    // The tool really was offered to the server.
    const sent = hermes.requests('openai')[0]!.body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['echo']);
  });

  it('reports prompt caching and the cache prices of an Anthropic model', async () => {
    process.env.CUELAB_TEST_ANTHROPIC_KEY = 'sk-ant-check';
    try {
      const result = await check([
        ...['--provider', 'anthropic', '--model', 'claude-sonnet-4-6'],
        ...['--base-url', anthropic.url, '--api-key-env', 'CUELAB_TEST_ANTHROPIC_KEY'],
      ]);
      expect(result.code).toBe(0);
      expect(result.out).toContain('tool calls: yes (structured)');
      expect(result.out).toContain('prompt caching: on');
      expect(result.out).toContain(
        'price: $3 in / $15 out per Mtok, cache reads $0.3, cache writes $3.75',
      );
      expect(anthropic.requests('anthropic')[1]!.cache!.cache_read_input_tokens).toBeGreaterThan(
        1000,
      );
    } finally {
      delete process.env.CUELAB_TEST_ANTHROPIC_KEY;
    }
  });

  it('stores a failed check, and a study against that endpoint refuses to launch', async () => {
    const result = await check([
      ...['--provider', 'openai-compatible', '--model', 'mute'],
      ...['--base-url', mute.openaiUrl],
    ]);
    expect(result.code).toBe(1);
    expect(result.out).toContain('FAILED: openai-compatible mute');
    expect(result.out).toContain('tool calls: no');
    const stored = lastProviderCheck(workspace(), {
      provider: 'openai-compatible',
      model: 'mute',
      baseUrl: mute.openaiUrl,
    });
    expect(stored).toMatchObject({ ok: false, toolCalls: false });

    const engine = createEngine({ path: workspace(), source: 'flag' });
    try {
      saveSuite(
        engineStore(engine),
        loadSuiteFile(join(__dirname, '..', 'fixtures', 'mini-suite.json')),
        'imported',
      );
      const spec = {
        name: 'against a failed endpoint',
        suite: 'fixture-suite',
        judges: [
          { id: 'mute', provider: 'openai-compatible', model: 'mute', baseUrl: mute.openaiUrl },
        ],
      };
      expect(() =>
        engine.handlers.createStudy({ spec, trustedEndpoints: [mute.openaiUrl] }),
      ).toThrow(
        /judge mute: the connection check of openai-compatible mute at .* failed .*answered without calling the echo tool/,
      );
      // The endpoint that passed launches.
      const passed = {
        ...spec,
        judges: [
          {
            id: 'qwen',
            provider: 'openai-compatible',
            model: 'Qwen/Qwen3-235B-A22B',
            baseUrl: hermes.openaiUrl,
          },
        ],
      };
      const created = await engine.handlers.createStudy({
        spec: passed,
        trustedEndpoints: [hermes.openaiUrl],
      });
      expect(created.studyId).toMatch(/\w/);
    } finally {
      engine.close();
    }
  });
});
