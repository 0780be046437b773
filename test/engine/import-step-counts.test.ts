/**
 * The count check of every import format, through `cuelab suite import` on a real SQLite
 * workspace: each format's fixture imports with as many steps stored as its source shows, a
 * step text of the source is in the stored trajectory (read back from the workspace) and, for
 * Terminal-Bench 1, in the exact prompt `cuelab prompt` renders for the judge; a run that lost
 * steps is imported with a WARNING the CLI prints; and the same runs imported again under
 * another name are refused naming the suite that holds them.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { openStore } from '../../src/main/engine/store/database';
import { listSuiteItems, listSuites } from '../../src/main/engine/store/faces/suites';
import type { SuiteItem } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

const fixtures = join(__dirname, '..', 'fixtures', 'import');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** An Inspect log whose one sample calls a tool (the public fixtures' samples call none). */
function inspectLogWithTools(): string {
  return JSON.stringify({
    version: 2,
    status: 'success',
    eval: { task: 'toolcheck', model: 'openai/gpt-4o', created: '2025-01-01T00:00:00Z' },
    samples: [
      {
        id: 1,
        epoch: 1,
        input: 'How many lines does /etc/hosts have?',
        target: 'C',
        messages: [
          { role: 'user', content: 'How many lines does /etc/hosts have?' },
          {
            role: 'assistant',
            content: 'I will count them with wc.',
            tool_calls: [
              { id: 'call-1', function: 'bash', arguments: { cmd: 'wc -l /etc/hosts' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call-1', content: '7 /etc/hosts' },
          { role: 'assistant', content: 'It has 7 lines.' },
        ],
        scores: { match: { value: 'C' } },
      },
    ],
  });
}

/** Per format: a folder to import and a text of one of its agent's steps. */
const cases: { format: string; path: () => string; step: string }[] = [
  {
    format: 'mini-swe-agent',
    path: () => join(fixtures, 'mini-swe-agent'),
    step: 'cat ./django/core/management/commands/shell.py',
  },
  {
    format: 'swe-agent',
    path: () => join(fixtures, 'swe-agent'),
    step: '{\\"file_name\\":\\"missing_colon.py\\"}',
  },
  {
    format: 'terminal-bench',
    path: () => join(fixtures, 'terminal-bench-real'),
    step: 'The level is the second field and the service the third.',
  },
  {
    format: 'harbor',
    path: () => join(fixtures, 'harbor'),
    step: 'chmod -R 777 /app && /app/deploy.sh',
  },
  {
    format: 'harbor',
    path: () => join(fixtures, 'harbor-golden'),
    step: "echo 'test1' > test_dir/file1.txt",
  },
  {
    format: 'mcpmark',
    path: () => join(fixtures, 'mcpmark'),
    step: '/tmp/mcpmark/file_property/largest.jpg',
  },
  { format: 'inspect', path: () => join(scratch.path, 'inspect'), step: 'wc -l /etc/hosts' },
];

const workspace = makeTempDir();
const scratch = makeTempDir();
const flags = ['--workspace', workspace.path];

function stored(suiteId: string): SuiteItem[] {
  const store = openStore(join(workspace.path, 'cuelab.sqlite'));
  try {
    return listSuiteItems(store, suiteId);
  } finally {
    store.close();
  }
}

beforeAll(() => {
  cpSync(join(fixtures, 'inspect'), join(scratch.path, 'inspect'), { recursive: true });
  writeFileSync(join(scratch.path, 'inspect', 'toolcheck.json'), inspectLogWithTools());
});
afterAll(() => {
  workspace.remove();
  scratch.remove();
});

describe('every format keeps as many steps as its source shows', () => {
  cases.forEach(({ format, path, step }, index) => {
    it(`${format} (${index + 1})`, async () => {
      const suite = `counts-${index + 1}`;
      const result = await cli([
        'suite',
        'import',
        path(),
        '--name',
        suite,
        '--format',
        format,
        '--json',
        ...flags,
      ]);
      expect(result.code, result.err).toBe(0);
      const summary = JSON.parse(result.out) as {
        imported: { id: string; steps?: { source: number; stored: number }; warnings: string[] }[];
        warnings: string[];
      };
      expect(summary.warnings).toEqual([]);
      for (const entry of summary.imported) {
        expect(entry.steps, entry.id).toBeDefined();
        expect(entry.steps!.stored, entry.id).toBe(entry.steps!.source);
      }
      // Some run of the folder has steps, so the check above compared something.
      expect(summary.imported.some((entry) => entry.steps!.source > 0)).toBe(true);
      const texts = stored(suite).map((item) => JSON.stringify(item.trajectory));
      expect(texts.some((text) => text.includes(step))).toBe(true);
    });
  });
});

describe('Terminal-Bench 1 steps in the judge prompt and the count warning', () => {
  it("puts the agent's own step, command and output in the prompt cuelab prompt renders", async () => {
    const suite = 'counts-3';
    const item = stored(suite).find((entry) => entry.id.endsWith('.mini-swe-agent'))!;
    const prompt = await cli(['prompt', '--suite', suite, '--item', item.id, '--json', ...flags]);
    expect(prompt.code, prompt.err).toBe(0);
    const text = JSON.stringify(JSON.parse(prompt.out));
    expect(text).toContain(
      'The level is the second field and the service the third. I will count ERROR lines per service.',
    );
    expect(text).toContain('sh /app/make_csv.sh > /app/errors.csv && cat /app/errors.csv');
    expect(text).toContain('billing,60');
    expect(text).not.toContain('installed-agent');
    expect(text).not.toContain('tmux wait -S done');
  });

  it('prints a WARNING for a run that lost steps, and stores it', async () => {
    const copy = join(scratch.path, 'lost');
    cpSync(join(fixtures, 'terminal-bench-real'), copy, { recursive: true });
    const trial = join(copy, 'run', 'tally-errors', 'tally-errors.1-of-1.mini-swe-agent');
    const pane = join(trial, 'panes', 'post-agent.txt');
    writeFileSync(
      pane,
      readFileSync(pane, 'utf8').replace('mini-swe-agent (step 2, $0.02):', 'mini-swe-agent ('),
    );
    // The same trials as suite counts-3 (their results.json is the same): allowed on purpose.
    const result = await cli([
      'suite',
      'import',
      copy,
      '--name',
      'lost steps',
      '--allow-duplicate',
      ...flags,
    ]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(
      /^WARNING: tally-errors\.1-of-1\.mini-swe-agent: \S*results\.json shows 6 numbered agent steps but only 5 were recovered/m,
    );
    const item = stored('lost-steps').find((entry) => entry.id.endsWith('.mini-swe-agent'))!;
    expect(item.trajectory.filter((message) => message.tool_calls?.length)).toHaveLength(5);
  });
});

describe('the same runs under another name', () => {
  it('are refused naming the suite that holds them, unless --allow-duplicate', async () => {
    // The same name again replaces that suite: not a duplicate of itself.
    const replaced = await cli([
      'suite',
      'import',
      join(fixtures, 'harbor'),
      '--name',
      'counts-4',
      ...flags,
    ]);
    expect(replaced.code, replaced.err).toBe(0);
    const again = await cli([
      'suite',
      'import',
      join(fixtures, 'harbor'),
      '--name',
      'harbor again',
      ...flags,
    ]);
    expect(again.code).not.toBe(0);
    expect(again.err).toContain('2 of these 2 runs are already imported as suite counts-4');
    expect(again.err).toContain('this import duplicates suite counts-4');
    expect(again.err).toContain('--allow-duplicate');
    const store = openStore(join(workspace.path, 'cuelab.sqlite'));
    const ids = listSuites(store).map((suite) => suite.id);
    store.close();
    expect(ids).not.toContain('harbor-again');
    const allowed = await cli([
      'suite',
      'import',
      join(fixtures, 'harbor'),
      '--name',
      'harbor again',
      '--allow-duplicate',
      ...flags,
    ]);
    expect(allowed.code, allowed.err).toBe(0);
    expect(allowed.out).toContain('WARNING: 2 of these 2 runs are already imported as suite');
    expect(stored('harbor-again')).toHaveLength(2);
  });
});
