/**
 * Terminal-Bench 1 trials in `tb run`'s layout (test/fixtures/import/terminal-bench-context):
 * the task folder's files travel with the item as its build context (graders' files never), the
 * workdir is the Dockerfile's last WORKDIR, compose limits become container limits, and the
 * trajectory is the agent's commands each with its own output, from the agent's logs, the
 * asciinema recording or commands.txt in the final pane; an empty pane is flagged.
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importRuns } from '../../src/main/engine/suites/import';
import { maxBuildContextBytes } from '../../src/main/engine/suites/import/task-environment';
import type { SuiteItem } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

const fixture = join(__dirname, '..', 'fixtures', 'import', 'terminal-bench-context');
const trial = join('run', 'count-words', 'count-words.1-of-1.terminus');

function decoded(item: SuiteItem): Record<string, string> {
  return Object.fromEntries(
    Object.entries(item.environment.buildContext ?? {}).map(([path, data]) => [
      path,
      Buffer.from(data, 'base64').toString('utf8'),
    ]),
  );
}

function calls(item: SuiteItem): { keystrokes: string[]; output: string }[] {
  return item.trajectory.flatMap((message, index) =>
    (message.tool_calls ?? []).map((call) => ({
      keystrokes: (JSON.parse(call.function.arguments) as { keystrokes: string[] }).keystrokes,
      output: String(item.trajectory[index + 1]?.content ?? ''),
    })),
  );
}

describe('a Terminal-Bench task whose Dockerfile copies files', () => {
  const outcome = importRuns({ path: fixture, format: 'auto' });
  const item = outcome.suite.items[0]!;

  it('carries the files COPY reads as the build context, and no grader file', () => {
    expect(item.environment.dockerfile).toContain('COPY setup.sh /tmp/setup.sh');
    const context = decoded(item);
    expect(Object.keys(context).sort()).toEqual(['data/input.txt', 'setup.sh']);
    expect(context['data/input.txt']).toBe('the quick brown fox jumps over the lazy dog\n');
    for (const content of [...Object.values(context), JSON.stringify(item)]) {
      expect(content).not.toContain('HIDDEN-GRADER-MARKER');
    }
  });

  it("works in the Dockerfile's last WORKDIR with the compose file's limits", () => {
    expect(item.environment.workdir).toBe('/srv/work');
    expect(item.environment.resources).toEqual({ memoryMb: 512, cpus: 1, pids: 128 });
    expect(outcome.imported[0]!.limits).toEqual({
      memoryMb: 512,
      cpus: 1,
      pids: 128,
      network: false,
    });
  });

  it("reads the agent's episodes as steps, each with the terminal it left", () => {
    expect(item.gold).toBe('pass');
    const steps = calls(item);
    expect(steps.map((step) => step.keystrokes.join(''))).toEqual([
      'ls -la /data\n',
      'wc -w /data/input.txt\n',
      'wc -w < /data/input.txt > count.txt; cat count.txt\n',
    ]);
    expect(steps[0]!.output).toContain('input.txt');
    expect(steps[1]!.output).toContain('9 /data/input.txt');
    expect(steps[2]!.output.trim().split('\n')[0]).toBe('9');
    expect(item.trajectory[1]!.content).toContain('Look at the input file first.');
  });
});

describe('Terminal-Bench trials without agent logs', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    dir = makeTempDir();
    cpSync(fixture, dir.path, { recursive: true });
    rmSync(join(dir.path, trial, 'agent-logs'), { recursive: true });
  });
  afterEach(() => dir.remove());
  const only = () => importRuns({ path: dir.path, format: 'terminal-bench' });

  it('splits the asciinema recording where the agent pressed Enter, escapes removed', () => {
    const steps = calls(only().suite.items[0]!);
    expect(steps.map((step) => step.keystrokes)).toEqual([
      ['ls -la /data'],
      ['wc -w /data/input.txt'],
      ['wc -w < /data/input.txt > count.txt; cat count.txt'],
    ]);
    expect(steps[1]!.output).toMatch(/^9 \/data\/input\.txt\n/);
    expect(steps.map((step) => step.output).join('')).not.toContain('\u001b');
  });

  it('else finds each command of commands.txt in the final pane, output whole', () => {
    rmSync(join(dir.path, trial, 'sessions', 'agent.cast'));
    const pane = join(dir.path, trial, 'panes', 'post-agent.txt');
    // A long pane, as real runs leave (48-120k characters): nothing of it is cut at import.
    const long = Array.from({ length: 4000 }, (_, n) => `line ${n} of a long listing`).join('\n');
    writeFileSync(
      pane,
      `root@5e1f0a9c2b7d:/srv/work# ls -la /data\n${long}\n` +
        'root@5e1f0a9c2b7d:/srv/work# wc -w /data/input.txt\n9 /data/input.txt\n' +
        'root@5e1f0a9c2b7d:/srv/work# wc -w < /data/input.txt > count.txt; cat count.txt\n9\n',
    );
    const item = only().suite.items[0]!;
    const steps = calls(item);
    expect(steps).toHaveLength(3);
    expect(steps[0]!.output).toBe(long);
    expect(steps[1]!.output).toBe('9 /data/input.txt');
    expect(steps[2]!.output).toBe('9');
    expect(item.trajectory).toHaveLength(7);
  });

  it('flags a trial whose post-agent pane is empty and that nothing else records', () => {
    rmSync(join(dir.path, trial, 'sessions', 'agent.cast'));
    writeFileSync(join(dir.path, trial, 'panes', 'post-agent.txt'), '');
    expect(only).toThrow(/empty-pane: .*post-agent\.txt is empty/);
    const kept = importRuns({ path: dir.path, format: 'terminal-bench', keepFlagged: true });
    expect(kept.suite.items[0]!.provenance?.flags?.[0]).toContain('empty-pane');
  });
});

describe('a task folder too large to carry', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => dir.remove());

  it('is refused with a message naming the cap, and nothing else is lost', () => {
    cpSync(fixture, dir.path, { recursive: true });
    writeFileSync(
      join(dir.path, 'tasks', 'count-words', 'data', 'big.bin'),
      Buffer.alloc(maxBuildContextBytes + 1),
    );
    expect(() => importRuns({ path: dir.path, format: 'terminal-bench' })).toThrow(
      /build context .* larger than 16 MiB/,
    );
  });
});
