/**
 * Terminal-Bench 1 trials in the form the harness really leaves them
 * (test/fixtures/import/terminal-bench-real): every blocking command typed as
 * `<command>; tmux wait -S done`, Terminus' keystrokes logged in commands.txt as one string
 * each, an installed agent (mini-swe-agent) set up by the harness in the agent's pane before
 * its own log, and 60-80 KB panes. The import recovers each of the agent's steps with its
 * command, its output and the agent's own words, never the harness's setup, and an import that
 * recovers fewer steps than the source shows says so.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importRuns } from '../../src/main/engine/suites/import';
import { splitPane } from '../../src/main/engine/suites/import/terminal-pane';
import type { SuiteItem } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

const fixture = join(__dirname, '..', 'fixtures', 'import', 'terminal-bench-real');
const terminus = join('run', 'tally-errors', 'tally-errors.1-of-1.terminus');
const mini = join('run', 'tally-errors', 'tally-errors.1-of-1.mini-swe-agent');

interface Step {
  keystrokes: string[];
  thought: string;
  output: string;
}

/** The item's steps: each terminal call with the words before it and the output after it. */
function steps(item: SuiteItem): Step[] {
  return item.trajectory.flatMap((message, index) =>
    (message.tool_calls ?? []).map((call) => ({
      keystrokes: (JSON.parse(call.function.arguments) as { keystrokes: string[] }).keystrokes,
      thought: String(message.content ?? ''),
      output: String(item.trajectory[index + 1]?.content ?? ''),
    })),
  );
}

function byId(items: SuiteItem[], suffix: string): SuiteItem {
  const item = items.find((entry) => entry.id.endsWith(suffix));
  if (!item) throw new Error(`no item ending ${suffix}`);
  return item;
}

describe('the fixture has the real form', () => {
  it('wraps blocking commands, logs Terminus keystrokes as strings, and is 60-80 KB', () => {
    const pane = readFileSync(join(fixture, terminus, 'panes', 'post-agent.txt'), 'utf8');
    expect(pane).toContain('# ls -la /app/logs; tmux wait -S done');
    expect(pane.length).toBeGreaterThan(60_000);
    expect(pane.length).toBeLessThan(80_000);
    expect(readFileSync(join(fixture, terminus, 'commands.txt'), 'utf8')).toContain(
      "'ls -la /app/logs\\n'",
    );
    const miniPane = readFileSync(join(fixture, mini, 'panes', 'post-agent.txt'), 'utf8');
    expect(miniPane.length).toBeGreaterThan(60_000);
    expect(miniPane.length).toBeLessThan(80_000);
    expect(miniPane).toContain('source /installed-agent/setup-env.sh; tmux wait -S done');
  });
});

describe('a Terminus trial', () => {
  const outcome = importRuns({ path: fixture, format: 'terminal-bench' });
  const item = byId(outcome.suite.items, '.terminus');

  it("reads each episode's commands with the agent's own analysis and the terminal it left", () => {
    const all = steps(item);
    expect(all.map((step) => step.keystrokes)).toEqual([
      ['ls -la /app/logs\n'],
      ['cat /app/logs/events.log\n'],
      [
        'grep -c ERROR /app/logs/events.log\n',
        "grep ERROR /app/logs/events.log | awk '{print $3}' | sort | uniq -c | sort -rn\n",
      ],
      [
        "(echo service,count; grep ERROR /app/logs/events.log | awk '{print $3}' | sort | uniq -c | sort -rn | awk '{print $2\",\"$1}') > /app/errors.csv\n",
        'cat /app/errors.csv\n',
      ],
    ]);
    expect(all[0]!.thought).toContain(
      'A fresh shell in /app; I have not looked at anything yet, so I do not know how big the log is.',
    );
    expect(all[0]!.thought).toContain('List the logs folder to see the log file and its size');
    expect(all[2]!.thought).toContain('the service is the third field');
    expect(all[0]!.output).toContain('events.log');
    expect(all[2]!.output).toMatch(/\n124\n/);
    expect(all[3]!.output).toContain('service,count\nbilling,60\nauth,31');
    // The closing episode has words and no command.
    expect(item.trajectory.at(-1)).toMatchObject({ role: 'assistant' });
    expect(String(item.trajectory.at(-1)!.content)).toContain('the task is done');
    expect(outcome.imported.find((entry) => entry.id === item.id)).toMatchObject({
      steps: { source: 6, stored: 6 },
      warnings: [],
    });
  });
});

describe('a Terminus trial without its agent logs', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    dir = makeTempDir();
    cpSync(fixture, dir.path, { recursive: true });
    rmSync(join(dir.path, terminus, 'agent-logs'), { recursive: true });
    rmSync(join(dir.path, mini), { recursive: true });
  });
  afterEach(() => dir.remove());

  it('finds each command of commands.txt in the pane past its `; tmux wait -S done`', () => {
    const outcome = importRuns({ path: dir.path, format: 'terminal-bench' });
    const all = steps(outcome.suite.items[0]!);
    expect(all.map((step) => step.keystrokes[0]!.trim())).toEqual([
      'ls -la /app/logs',
      'cat /app/logs/events.log',
      'grep -c ERROR /app/logs/events.log',
      "grep ERROR /app/logs/events.log | awk '{print $3}' | sort | uniq -c | sort -rn",
      "(echo service,count; grep ERROR /app/logs/events.log | awk '{print $3}' | sort | uniq -c | sort -rn | awk '{print $2\",\"$1}') > /app/errors.csv",
      'cat /app/errors.csv',
    ]);
    // The whole log the agent printed, each line of it, and no echo of the harness's wait.
    const log = readFileSync(join(fixture, 'tasks', 'tally-errors', 'logs', 'events.log'), 'utf8');
    expect(all[1]!.output).toBe(log.trimEnd());
    expect(all[2]!.output).toBe('124');
    expect(all.map((step) => step.output).join('\n')).not.toContain('tmux wait');
    expect(outcome.warnings).toEqual([]);
  });

  it('says so when the pane shows fewer of the commands than commands.txt holds', () => {
    const pane = join(dir.path, terminus, 'panes', 'post-agent.txt');
    const text = readFileSync(pane, 'utf8');
    // A pane that lost its top (tmux's history limit): the first two commands are gone.
    writeFileSync(pane, text.slice(text.indexOf('root@7d3e91c0a5f2:/app# grep -c ERROR')));
    const outcome = importRuns({ path: dir.path, format: 'terminal-bench' });
    expect(outcome.warnings).toEqual([
      expect.stringMatching(
        /^tally-errors\.1-of-1\.terminus: .*results\.json shows 6 agent commands but only 4 were recovered/,
      ),
    ]);
    expect(outcome.imported[0]!.steps).toEqual({ source: 6, stored: 4 });
  });
});

describe('an installed agent (mini-swe-agent) in the pane', () => {
  const outcome = importRuns({ path: fixture, format: 'terminal-bench' });
  const item = byId(outcome.suite.items, '.mini-swe-agent');

  it("reads the agent's numbered steps, never the harness's setup, as steps", () => {
    const all = steps(item);
    expect(all).toHaveLength(6);
    expect(all.map((step) => step.keystrokes[0])).toEqual([
      'wc -l /app/logs/events.log && head -n 3 /app/logs/events.log',
      "grep ERROR /app/logs/events.log | awk '{print $3}' | sort | uniq -c | sort -rn",
      expect.stringMatching(/^cat <<'EOF' > \/app\/make_csv\.sh\n[\s\S]*# ```\n[\s\S]*\nEOF$/),
      'sh /app/make_csv.sh > /app/errors.csv && cat /app/errors.csv',
      'head -n 1 /app/errors.csv | od -c | head -n 2',
      'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT',
    ]);
    const everything = JSON.stringify(item.trajectory);
    expect(everything).not.toContain('installed-agent');
    expect(everything).not.toContain('libfixture');
    expect(all[1]!.thought).toBe(
      'The level is the second field and the service the third. I will count ERROR lines per service.',
    );
    expect(all[1]!.output).toBe(
      '<returncode>0</returncode>\n<output>\n     60 billing\n     31 auth\n     18 search\n' +
        '      9 mailer\n      6 api\n</output>',
    );
    expect(all[3]!.output).toContain('service,count\nbilling,60');
    expect(outcome.imported.find((entry) => entry.id === item.id)).toMatchObject({
      steps: { source: 6, stored: 6 },
      warnings: [],
    });
  });

  describe('when a step cannot be read', () => {
    let dir: ReturnType<typeof makeTempDir>;
    beforeEach(() => {
      dir = makeTempDir();
      cpSync(join(fixture, 'run'), dir.path, { recursive: true });
    });
    afterEach(() => dir.remove());

    it('says how many of the numbered steps were lost', () => {
      const pane = join(dir.path, 'tally-errors', 'tally-errors.1-of-1.mini-swe-agent', 'panes');
      const text = readFileSync(join(pane, 'post-agent.txt'), 'utf8');
      // A step header the log mangled: its step joins the one before and is lost as a step.
      writeFileSync(
        join(pane, 'post-agent.txt'),
        text.replace('mini-swe-agent (step 3, $0.03):', 'mini-swe-agent (ste'),
      );
      const again = importRuns({ path: dir.path, format: 'terminal-bench' });
      const entry = again.imported.find((run) => run.id.endsWith('.mini-swe-agent'))!;
      expect(entry.steps).toEqual({ source: 6, stored: 5 });
      expect(entry.warnings[0]).toMatch(
        /shows 6 numbered agent steps but only 5 were recovered; the judge would not see the other 1/,
      );
    });
  });
});

describe('a stranger-sized pane', () => {
  it('finds commands in 1 MB of repeated wrapped prompt lines without rescanning it', () => {
    const long = `echo ${'x'.repeat(60)}`;
    const line = `root@7d3e91c0a5f2:/app# ${long}`;
    const pane = Array.from({ length: Math.ceil(1_048_576 / line.length) }, () => line).join('\n');
    expect(pane.length).toBeGreaterThan(1_000_000);
    // 2,000 commands that share the lines' first 40 characters but none of which it shows.
    const commands = Array.from({ length: 2000 }, (_, n) => `echo ${'x'.repeat(50)}z${n}`);
    const found = splitPane(pane, commands);
    expect(found).toHaveLength(2000);
    expect(found.every((step) => step.output.startsWith('(the final pane does not show'))).toBe(
      true,
    );
    const shown = splitPane(`${pane}\nroot@7d3e91c0a5f2:/app# ls; tmux wait -S done\nfile`, [
      'ls\n',
    ]);
    expect(shown).toEqual([{ keystrokes: ['ls\n'], output: 'file' }]);
  });
});
