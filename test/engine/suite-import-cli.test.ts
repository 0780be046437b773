/**
 * `cuelab suite import` on a mixed folder of every format, through the command line on a real
 * SQLite workspace: the imported/skipped summary, `cuelab suite show`, `cuelab prompt` on every
 * imported item with none of what graders see reaching a prompt or a container spec, long tool
 * outputs cut visibly, and a failed import leaving the workspace untouched.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { openStore } from '../../src/main/engine/store/database';
import { listSuiteItems } from '../../src/main/engine/store/suite-items';
import { makeTempDir } from '../helpers/temp-dir';

const fixtures = join(__dirname, '..', 'fixtures', 'import');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

// Strings only graders' files hold (reports, test logs, verifiers, solutions, parser results).
const graderOnly = [
  'is_resolved',
  'parser_results',
  'failure_mode',
  'tests_status',
  'FAIL_TO_PASS',
  'verification_output',
  'run-tests.sh',
  'HIDDEN-GRADER-MARKER',
  'test_hello_file_content',
  'test_hello_file PASSED',
  'verify_sg_jpg_not_exists',
  'sg.jpg still exists',
  'largest.jpg exists',
  'test_outputs.py',
  // Harbor's example task (harbor-golden): its verifier and its solution.
  'test_state.py',
  'pytest-json-ctrf',
  'echo "Done!"',
];

const formats = ['mini-swe-agent', 'swe-agent', 'terminal-bench', 'harbor', 'mcpmark', 'inspect'];

/** Every text file under the fixtures, so a marker no file holds cannot pass unnoticed. */
function fixtureTexts(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return fixtureTexts(path);
    return [readFileSync(path, 'latin1')];
  });
}

describe('the grader-only markers', () => {
  it('each occurs in some fixture file, so the leak test below can fail', () => {
    const texts = fixtureTexts(fixtures);
    for (const marker of graderOnly)
      expect(
        texts.some((text) => text.includes(marker)),
        marker,
      ).toBe(true);
  });
});

describe('cuelab suite import on a mixed folder', () => {
  const workspace = makeTempDir();
  const flags = ['--workspace', workspace.path];
  let summary: { code: number; out: string; err: string };

  beforeAll(async () => {
    summary = await cli(['suite', 'import', fixtures, '--name', 'Mixed runs', ...flags]);
  });
  afterAll(() => workspace.remove());

  it('prints what it imported and what it skipped, with reasons', () => {
    expect(summary.code).toBe(0);
    expect(summary.out).toMatch(/^Imported \d+ of \d+ runs into suite mixed-runs/);
    for (const format of formats) expect(summary.out).toContain(format);
    expect(summary.out).toMatch(/Skipped \d+:/);
    expect(summary.out).toMatch(
      /cron-broken-network.*results\.json: flagged, not imported \(agent-never-ran/,
    );
    expect(summary.out).toMatch(/log_tool_call_error\.json.*: .*task text/);
  });

  it('shows each item with its gold, messages, environment and provenance', async () => {
    const shown = await cli(['suite', 'show', 'mixed-runs', ...flags]);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/django__django-14752 {2}gold pass {2}\d+ messages/);
    expect(shown.out).toContain(
      'environment: image swebench/sweb.eval.x86_64.django_1776_django-14752:latest + agent patch',
    );
    expect(shown.out).toMatch(
      /source: mini-swe-agent\/run\/trajs\/.*\(mini-swe-agent, sha256 [0-9a-f]{64}\)/,
    );
  });

  it('renders every imported item with cuelab prompt, and no grader file reaches a prompt or a container', async () => {
    const store = openStore(join(workspace.path, 'cuelab.sqlite'));
    const items = listSuiteItems(store, 'mixed-runs');
    store.close();
    expect(items.length).toBeGreaterThanOrEqual(10);
    // Every format and every fixture folder has items in the suite, so each is checked below.
    const sources = new Set(items.map((item) => item.provenance?.source.split('/')[0]));
    for (const folder of readdirSync(fixtures).filter((name) => !name.includes('.')))
      expect(sources, `no item from ${folder}`).toContain(folder);
    expect(new Set(items.map((item) => item.provenance?.format))).toEqual(new Set(formats));
    for (const item of items) {
      const prompt = await cli([
        'prompt',
        '--suite',
        'mixed-runs',
        '--item',
        item.id,
        '--json',
        ...flags,
      ]);
      expect(prompt.code, `${item.id}: ${prompt.err}`).toBe(0);
      const environment = JSON.stringify(item.environment);
      for (const marker of graderOnly) {
        expect(prompt.out, `${item.id} prompt holds "${marker}"`).not.toContain(marker);
        expect(environment, `${item.id} environment holds "${marker}"`).not.toContain(marker);
      }
    }
  });

  it('cuts long tool outputs visibly, and not when the limit is unbounded', async () => {
    const cut = await cli([
      'prompt',
      '--suite',
      'mixed-runs',
      '--item',
      'django__django-13660',
      '--json',
      ...flags,
    ]);
    const cutText = (JSON.parse(cut.out) as { messages: { content: string }[] }).messages[0]!
      .content;
    expect(cutText).toContain('characters of this tool output cut by CueLab (limit 4000');
    await cli([
      'suite',
      'import',
      join(fixtures, 'mini-swe-agent'),
      '--name',
      'whole',
      '--tool-output-limit',
      'unbounded',
      // The same runs as suite mixed-runs, on purpose: refused without this flag.
      '--allow-duplicate',
      ...flags,
    ]);
    const whole = await cli([
      'prompt',
      '--suite',
      'whole',
      '--item',
      'django__django-13660',
      '--json',
      ...flags,
    ]);
    const wholeText = (JSON.parse(whole.out) as { messages: { content: string }[] }).messages[0]!
      .content;
    expect(wholeText).not.toContain('cut by CueLab');
    expect(wholeText.length).toBeGreaterThan(cutText.length);
  });

  it('stores nothing when no run imports, and keeps the suite already there', async () => {
    const broken = makeTempDir();
    try {
      mkdirSync(join(broken.path, 'trajs', 'x__y-1'), { recursive: true });
      writeFileSync(
        join(broken.path, 'trajs', 'x__y-1', 'x__y-1.traj.json'),
        '{\n  "messages": [\n    oops\n]}',
      );
      writeFileSync(join(broken.path, 'a.traj'), JSON.stringify({ history: [] }));
      const failed = await cli(['suite', 'import', broken.path, '--name', 'Mixed runs', ...flags]);
      expect(failed.code).toBe(1);
      expect(failed.err).toMatch(/trajs\/x__y-1\/x__y-1\.traj\.json:3: not valid JSON/);
      expect(failed.err).toMatch(/a\.traj: history: the run has no messages/);
      const shown = await cli(['suite', 'show', 'mixed-runs', ...flags]);
      expect(shown.out).toContain('django__django-14752');
    } finally {
      broken.remove();
    }
  });

  it('still imports CueLab suite files', async () => {
    const own = await cli([
      'suite',
      'import',
      join(__dirname, '..', 'fixtures', 'mini-suite.json'),
      ...flags,
    ]);
    expect(own.code).toBe(0);
    expect(own.out).toMatch(/^Imported suite /);
  });
});
