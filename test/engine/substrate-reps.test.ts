import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { dockerLabels } from '../../src/main/engine/environments/docker/client';
import { listManagedContainers } from '../../src/main/engine/environments/docker/orphans';
import { provisionEnvironment } from '../../src/main/engine/environments/provision';
import { toolBudget } from '../../src/main/engine/judge/budget';
import { readoutFor } from '../../src/main/engine/judge/readout-catalog';
import type { JudgeRepRequest } from '../../src/main/engine/judge/run-rep';
import { runJudgeRep } from '../../src/main/engine/runner/commit-rep';
import { createAnthropicProvider } from '../../src/main/engine/providers/anthropic';
import { createOpenAIProvider } from '../../src/main/engine/providers/openai';
import { loadBuiltinSuite } from '../../src/main/engine/suites/builtin';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { loadJudgeRep } from '../../src/main/engine/store/judge-reps';
import type { SuiteItem } from '../../src/shared/suite-format';
import { ensurePostgresImage } from '../../src/main/engine/environments/docker/bootstrap';
import { dockerForTest } from '../helpers/docker';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { makeTempDir } from '../helpers/temp-dir';

const bin = join(__dirname, '..', '..', 'bin', 'cuelab.js');
const suite = loadBuiltinSuite('cuelab-mini');
const docker = new Docker();
const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';

function item(id: string): SuiteItem {
  const found = suite.items.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`cuelab-mini has no item ${id}`);
  return found;
}

interface StoredRep {
  outcome: string;
  simulated: number;
  tool_calls: { name: string; output: string }[];
}

describe('a judge rep on the PostgreSQL and web substrates', () => {
  let server: FakeModelServer;
  let store: Store;
  let available = false;
  const dir = makeTempDir();

  beforeAll(async () => {
    available = (await dockerForTest()) !== null;
    // Built once per machine (minutes); here, so no test's own timeout has to cover it.
    if (available) await ensurePostgresImage({ docker });
    server = await startFakeModelServer();
    store = openStore(join(dir.path, 'cuelab.sqlite'));
  }, 900_000);
  afterAll(async () => {
    await server.close();
    store.close();
    dir.remove();
    if (!available) return;
    const mine = (await listManagedContainers(docker)).filter(
      (container) => container.Labels?.[dockerLabels.enginePid] === String(process.pid),
    );
    expect(mine).toEqual([]);
  });

  function needDocker(context: TestContext): void {
    if (!available) context.skip(skipReason);
  }

  async function judge(entry: SuiteItem, provider: 'anthropic' | 'openai') {
    const provisioned = await provisionEnvironment(entry.environment, entry, { docker });
    try {
      const request: JudgeRepRequest = {
        input: {
          itemId: entry.id,
          task: entry.task,
          trajectory: entry.trajectory,
          readout: readoutFor('task_success', undefined),
          environment: provisioned.environment,
          seed: 17,
        },
        provider:
          provider === 'anthropic'
            ? createAnthropicProvider({ apiKey: 'k', baseUrl: server.url, timeoutMs: 10_000 })
            : createOpenAIProvider({
                kind: 'openai',
                apiKey: 'k',
                baseUrl: server.openaiUrl,
                timeoutMs: 10_000,
              }),
        providerKind: provider,
        model: provider === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-5',
        temperature: 0.7,
        budget: toolBudget(40),
        condition: {},
        suiteId: suite.id,
        retry: { sleep: () => Promise.resolve() },
      };
      return { result: await runJudgeRep(store, request), backend: provisioned.backend };
    } finally {
      await provisioned.dispose();
    }
  }

  it('queries the real server in the rep container through the Anthropic SDK', async (context) => {
    needDocker(context);
    const entry = item('pg-revenue-view-02');
    const decisive = entry.probes?.find((probe) => probe.decisive);
    server.script('anthropic', [
      reply.toolCall('sql_query', decisive?.input),
      reply.toolCalls([
        { name: 'sql_query', input: { sql: 'DELETE FROM orders' } },
        { name: 'shell', input: { command: 'psql -At -c "SELECT count(*) FROM orders"' } },
      ]),
      reply.toolCall('submit_verdict', {
        verdict: 'fail',
        confidence: 0.9,
        rationale: 'Every month is wrong: the view counts refunded orders.',
      }),
    ]);
    const before = server.callCount('anthropic');
    const { result, backend } = await judge(entry, 'anthropic');
    expect(backend).toBe('docker');
    const tools = (server.requests('anthropic')[before]?.body.tools as { name: string }[]).map(
      (tool) => tool.name,
    );
    expect(tools).toEqual([
      'shell',
      'read_file',
      'list_dir',
      'sql_query',
      'read_trajectory',
      'submit_verdict',
    ]);
    const calls = result.transcript.toolCalls;
    // The rows came from PostgreSQL holding the agent's end state (all 12 months wrong).
    expect(calls[0]?.output).toBe('months_wrong\n12\n(1 rows)');
    expect(calls[1]?.isError).toBe(true);
    expect(calls[1]?.output).toMatch(/read-only transaction/);
    expect(calls[2]?.output).toBe('exit code: 0\nstdout:\n600\n');
    expect(result.finalVerdict).toMatchObject({ kind: 'binary', outcome: 'fail' });
    expect(loadJudgeRep(store, result.repId)?.outcome).toBe('verdict');
  }, 300_000);

  it('searches and fetches the snapshot web through the OpenAI SDK, with no container', async () => {
    const entry = item('search-lake-depth-02');
    server.script('openai', [
      reply.toolCall('web_search', { query: 'Lake Ormond maximum depth survey' }),
      reply.toolCalls([
        { name: 'fetch_url', input: { url: 'https://ormond-survey.example.gov/reports/2021/' } },
        { name: 'fetch_url', input: { url: 'https://example.com/not-in-the-snapshot' } },
      ]),
      reply.toolCall('submit_verdict', {
        verdict: 'fail',
        confidence: 0.8,
        rationale: 'The 2021 survey measured 212 m, not 198 m.',
      }),
    ]);
    const before = server.callCount('openai');
    const { result, backend } = await judge(entry, 'openai');
    expect(backend).toBe('snapshot');
    const body = server.requests('openai')[before]?.body as {
      tools: { function: { name: string } }[];
      messages: { content: unknown }[];
    };
    expect(body.tools.map((tool) => tool.function.name)).toEqual([
      'web_search',
      'fetch_url',
      'read_trajectory',
      'submit_verdict',
    ]);
    expect(JSON.stringify(body.messages)).toContain('offline snapshot of 16 web pages');
    const [searched, fetched, missing] = result.transcript.toolCalls;
    expect(searched?.output).toMatch(
      /^1\. Lake Ormond bathymetric survey 2021\n {3}https:\/\/ormond-survey/,
    );
    expect(fetched?.output).toContain('measured a maximum depth of 212 m');
    expect(missing?.isError).toBe(true);
    expect(missing?.output).toContain("not in this item's web snapshot");
    expect(result.finalVerdict).toMatchObject({ outcome: 'fail' });
  });

  it.for<[string, string]>([
    ['pg-clean-emails-02', 'sql_query'],
    ['search-railway-opening-02', 'fetch_url'],
  ])(
    'runs the synthetic judge on %s with real %s calls',
    { timeout: 300_000 },
    ([id, tool], context) => {
      if (id.startsWith('pg-')) needDocker(context);
      const run = spawnSync(
        process.execPath,
        [
          bin,
          'judge',
          '--suite',
          'cuelab-mini',
          '--item',
          id,
          '--provider',
          'synthetic',
          '--persona',
          'robust-frontier',
          '--json',
        ],
        { encoding: 'utf8', env: { ...process.env, CUELAB_WORKSPACE: dir.path }, timeout: 280_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      const rep = JSON.parse(run.stdout) as StoredRep;
      expect(rep.outcome).toBe('verdict');
      expect(rep.simulated).toBe(1);
      const decisive = item(id).probes?.find((probe) => probe.decisive);
      const call = rep.tool_calls.find((candidate) => candidate.name === tool);
      expect(call?.output).toBeTruthy();
      if (id.startsWith('pg-'))
        expect(rep.tool_calls.map((c) => c.output).join('\n')).toContain('emails_to_clean\n20');
      else expect(decisive?.tool).toBe('fetch_url');
    },
  );
});
