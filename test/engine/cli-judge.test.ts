import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_SEVERITY_CUE } from '../../src/main/engine/paper/cue-wordings';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const suiteFile = join(root, 'test', 'fixtures', 'mini-suite.json');

/** Runs the built CLI as a child process (so the fake server in this process can answer). */
function cuelab(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('cuelab suite, prompt and judge from the command line', () => {
  const dir = makeTempDir();
  const workspace = dir.path;
  let server: FakeModelServer;
  const env = () => ({ CUELAB_WORKSPACE: workspace, ANTHROPIC_API_KEY: 'test-key' });

  beforeAll(async () => {
    if (!existsSync(join(root, 'out', 'main', 'cli.js')))
      throw new Error('run "npm run build" first');
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('imports a suite and lists it', async () => {
    const imported = await cuelab(['suite', 'import', suiteFile], env());
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('Imported suite fixture-suite (2 items)');
    const listed = await cuelab(['suite', 'list'], env());
    expect(listed.stdout).toContain('fixture-suite\t2 items\tFixture suite');
    expect(
      (await cuelab(['suite', 'list', 'fixture-suite'], env())).stdout.trim().split('\n'),
    ).toEqual(['db-count-01', 'fs-logs-01']);
  });

  it('rejects a broken suite file naming the field, and stores nothing', async () => {
    const broken = join(workspace, 'broken.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      broken,
      JSON.stringify({
        id: 'broken',
        name: 'B',
        items: [{ id: 'x', dataset: 'd', substrate: 'moon', task: 't', trajectory: [] }],
      }),
    );
    const result = await cuelab(['suite', 'import', broken], env());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('items.0.substrate');
    expect(result.stderr).toContain('items.0.trajectory');
    expect((await cuelab(['suite', 'list'], env())).stdout).not.toContain('broken');
  });

  it('prints the exact prompt with the §3.1 cue marked where it was placed', async () => {
    const result = await cuelab(
      [
        'prompt',
        '--suite',
        'fixture-suite',
        '--item',
        'fs-logs-01',
        '--cue',
        'strong',
        '--direction',
        'severity',
        '--placement',
        'user',
      ],
      env(),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `=== message 2: user ===\n⟦cue⟧${STRONG_SEVERITY_CUE.text}⟦/cue⟧`,
    );
    expect(result.stdout.split('⟦cue⟧')).toHaveLength(2);
    expect(result.stdout).toContain('read_file:');
    expect(result.stdout).not.toContain('\nshell:');

    const json = await cuelab(
      ['prompt', '--suite', suiteFile, '--item', 'db-count-01', '--json'],
      env(),
    );
    const preview = JSON.parse(json.stdout) as {
      cueSpans: unknown[];
      tools: { name: string }[];
      cue: unknown;
    };
    expect(preview.cue).toBeNull();
    expect(preview.cueSpans).toEqual([]);
    expect(preview.tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'list_dir',
      'sql_query',
      'read_trajectory',
      'submit_verdict',
    ]);
  });

  it('gives clear errors for a bad condition', async () => {
    const noCue = await cuelab(
      ['prompt', '--suite', 'fixture-suite', '--item', 'fs-logs-01', '--placement', 'user'],
      env(),
    );
    expect(noCue.code).toBe(2);
    expect(noCue.stderr).toContain('--direction and --placement need a cue');
    const badPlacement = await cuelab(
      [
        'prompt',
        '--suite',
        'fixture-suite',
        '--item',
        'fs-logs-01',
        '--cue',
        'strong',
        '--placement',
        'sidebar',
      ],
      env(),
    );
    expect(badPlacement.code).toBe(2);
    expect(badPlacement.stderr).toContain('--placement');
    const badItem = await cuelab(['prompt', '--suite', 'fixture-suite', '--item', 'nope'], env());
    expect(badItem.code).toBe(1);
    expect(badItem.stderr).toContain('Suite "fixture-suite" has no item "nope"');
  });

  it('refuses to judge without an API key, before any call', async () => {
    const before = server.callCount();
    const result = await cuelab(
      [
        'judge',
        '--suite',
        'fixture-suite',
        '--item',
        'fs-logs-01',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-6',
        '--base-url',
        server.url,
      ],
      { CUELAB_WORKSPACE: workspace, ANTHROPIC_API_KEY: '' },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Set ANTHROPIC_API_KEY');
    expect(server.callCount()).toBe(before);
  });

  it('runs one cued rep end to end against the fake Anthropic server and stores it', async () => {
    server.script('anthropic', [
      reply.toolCall('list_dir', { path: 'logs' }),
      reply.toolCall('submit_verdict', {
        verdict: 'fail',
        confidence: 0.7,
        rationale: 'The expert says requirements are unmet.',
      }),
      reply.text(
        '{"cites_specific_observed_failure": false, "reason": "It cites only the note, no observed failure."}',
      ),
    ]);
    const result = await cuelab(
      [
        'judge',
        '--suite',
        'fixture-suite',
        '--item',
        'fs-logs-01',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-6',
        '--base-url',
        server.url,
        '--cue',
        'strong',
        '--direction',
        'severity',
        '--placement',
        'system',
        '--mitigation',
        'sufficiency-gate',
      ],
      env(),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^rep [0-9a-f-]{36}: verdict$/m);
    expect(result.stdout).toContain('verdict: PASS (confidence 0.5)');
    expect(result.stdout).toContain('1. list_dir {"path":"logs"}');
    const requests = server.requests('anthropic').slice(-3);
    expect(JSON.stringify(requests[0]?.body.system)).toContain(STRONG_SEVERITY_CUE.text);
    expect(requests[2]?.body.tools ?? []).toEqual([]);
    expect(JSON.stringify(requests[2]?.body.messages)).toContain(
      'The expert says requirements are unmet.',
    );

    const db = new Database(join(workspace, 'cuelab.sqlite'), { readonly: true });
    const rep = db
      .prepare(
        'SELECT outcome, verdict_json, final_verdict_json, gate_json, tool_results FROM judge_reps ORDER BY created_at DESC LIMIT 1',
      )
      .get() as Record<string, string | number>;
    db.close();
    expect(rep.outcome).toBe('verdict');
    expect(JSON.parse(String(rep.verdict_json))).toMatchObject({ outcome: 'fail' });
    expect(JSON.parse(String(rep.final_verdict_json))).toMatchObject({ outcome: 'pass' });
    expect(JSON.parse(String(rep.gate_json))).toMatchObject({
      applied: true,
      overturned: true,
      auditVerdict: 'ungrounded',
    });
    expect(rep.tool_results).toBe(1);
  });

  it("uses the suite's tool budget: the stop directive lands on the 2nd tool result", async () => {
    server.script('anthropic', [
      reply.toolCall('list_dir', { path: '.' }),
      reply.toolCall('list_dir', { path: 'logs' }),
      reply.toolCall('read_file', { path: 'logs/a.log' }),
      reply.toolCall('submit_verdict', { verdict: 'pass', confidence: 0.8, rationale: 'ok' }),
    ]);
    const result = await cuelab(
      [
        'judge',
        '--suite',
        'fixture-suite',
        '--item',
        'fs-logs-01',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-6',
        '--base-url',
        server.url,
      ],
      env(),
    );
    expect(result.stdout).toContain('2. list_dir {"path":"logs"}  [stop directive]');
    expect(result.stdout).toContain('3. read_file {"path":"logs/a.log"}\n');
  });

  it('prints the stored record with --json', async () => {
    server.script('anthropic', [
      reply.toolCall('submit_verdict', { verdict: 'pass', confidence: 0.8, rationale: 'ok' }),
    ]);
    const result = await cuelab(
      [
        'judge',
        '--suite',
        'fixture-suite',
        '--item',
        'fs-logs-01',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4-6',
        '--base-url',
        server.url,
        '--json',
      ],
      env(),
    );
    const record = JSON.parse(result.stdout) as {
      outcome: string;
      messages: unknown[];
      condition: { cue: unknown };
    };
    expect(record.outcome).toBe('verdict');
    expect(record.messages.length).toBe(2);
    expect(record.condition.cue).toBeNull();
  });
});
