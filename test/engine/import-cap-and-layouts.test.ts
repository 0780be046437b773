/**
 * Real runs a careless day brings: a Terminal-Bench 1 run given Terminal-Bench 2 task folders
 * (and a Harbor trial given Terminal-Bench 1 ones) gets the task's container, not silently
 * none; an item asking for more memory than this machine's container cap still renders with
 * `cuelab prompt` (no container needed), and `cuelab run` refuses before anything starts,
 * naming the item and the setting, on a real SQLite workspace.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { openStore } from '../../src/main/engine/store/database';
import { importRuns } from '../../src/main/engine/suites/import';
import { makeTempDir } from '../helpers/temp-dir';

const fixtures = join(__dirname, '..', 'fixtures', 'import');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('task folders of the other Terminal-Bench layout', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it('give a Terminal-Bench 1 run its container from a Terminal-Bench 2 task folder', () => {
    const root = join(dir.path, 'tb1-with-tb2-tasks');
    cpSync(join(fixtures, 'terminal-bench-real', 'run'), join(root, 'run'), { recursive: true });
    const task = join(root, 'tasks', 'tally-errors');
    mkdirSync(join(task, 'environment', 'logs'), { recursive: true });
    writeFileSync(
      join(task, 'task.toml'),
      'version = "1.0"\n\n[environment]\ncpus = 1\nmemory_mb = 3072\n',
    );
    writeFileSync(join(task, 'instruction.md'), 'Count the ERROR lines per service.\n');
    writeFileSync(
      join(task, 'environment', 'Dockerfile'),
      'FROM cuelab/base:latest\nWORKDIR /app\nCOPY logs/events.log /app/logs/events.log\n',
    );
    writeFileSync(join(task, 'environment', 'logs', 'events.log'), 'a log line\n');
    const outcome = importRuns({ path: root, format: 'terminal-bench' });
    for (const item of outcome.suite.items) {
      expect(item.environment.dockerfile).toContain('COPY logs/events.log');
      expect(Object.keys(item.environment.buildContext ?? {})).toEqual(['logs/events.log']);
      expect(item.environment.resources).toEqual({ cpus: 1, memoryMb: 3072 });
      expect(item.note).toMatch(/environment from .*tally-errors, a Terminal-Bench 2 task folder/);
    }
    expect(outcome.imported.map((entry) => entry.environment)).toEqual([
      'Dockerfile (built locally)',
      'Dockerfile (built locally)',
    ]);
  });

  it('give a Harbor trial its container from a Terminal-Bench 1 task folder', () => {
    const root = join(dir.path, 'harbor-with-tb1-tasks');
    cpSync(join(fixtures, 'harbor', 'job'), join(root, 'job'), { recursive: true });
    const task = join(root, 'tasks', 'hello-world');
    mkdirSync(task, { recursive: true });
    writeFileSync(join(task, 'task.yaml'), 'instruction: |-\n  Say hello.\n');
    writeFileSync(join(task, 'Dockerfile'), 'FROM cuelab/base:latest\nWORKDIR /srv/hello\n');
    writeFileSync(
      join(task, 'docker-compose.yaml'),
      'services:\n  client:\n    mem_limit: 768m\n    cpus: 1\n',
    );
    const outcome = importRuns({ path: root, format: 'harbor' });
    const item = outcome.suite.items.find((entry) => entry.id.startsWith('hello-world'))!;
    expect(item.environment.dockerfile).toContain('WORKDIR /srv/hello');
    expect(item.environment.workdir).toBe('/srv/hello');
    expect(item.environment.resources).toEqual({ memoryMb: 768, cpus: 1 });
    expect(item.note).toMatch(/Terminal-Bench 1 task folder \(task\.yaml\)/);
  });
});

describe('an item beyond the container cap', () => {
  const workspace = makeTempDir();
  const runs = makeTempDir();
  const flags = ['--workspace', workspace.path];
  beforeAll(() => {
    cpSync(join(fixtures, 'terminal-bench-real'), runs.path, { recursive: true });
    const compose = join(runs.path, 'tasks', 'tally-errors', 'docker-compose.yaml');
    writeFileSync(
      compose,
      readFileSync(compose, 'utf8').replace('mem_limit: 1g', 'mem_limit: 16g'),
    );
    rmSync(join(runs.path, 'run', 'tally-errors', 'tally-errors.1-of-1.terminus'), {
      recursive: true,
    });
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => {
    workspace.remove();
    runs.remove();
  });

  it('renders with cuelab prompt, and cuelab run refuses before starting, naming it', async () => {
    vi.stubEnv('CUELAB_CONTAINER_MAX_MEMORY_MB', '8192');
    const imported = await cli(['suite', 'import', runs.path, '--name', 'big', ...flags]);
    expect(imported.code, imported.err).toBe(0);
    const id = 'tally-errors.1-of-1.mini-swe-agent';
    const prompt = await cli(['prompt', '--suite', 'big', '--item', id, ...flags]);
    expect(prompt.code, prompt.err).toBe(0);
    expect(prompt.out).toContain('grep ERROR /app/logs/events.log');
    const spec = join(runs.path, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        name: 'too big',
        suite: 'big',
        judges: [
          { id: 'sim', provider: 'synthetic', model: 'synthetic', persona: 'deferential-frontier' },
        ],
        reps: 2,
      }),
    );
    const run = await cli(['run', spec, ...flags]);
    expect(run.code).not.toBe(0);
    expect(run.err).toContain(`${id}: environment.resources.memoryMb 16384 is beyond`);
    expect(run.err).toContain('CUELAB_CONTAINER_MAX_MEMORY_MB (now 8192)');
    expect(run.err).toContain('nothing was started');
    const store = openStore(join(workspace.path, 'cuelab.sqlite'));
    const studies = store.db.prepare('SELECT count(*) AS n FROM studies').get() as { n: number };
    const jobs = store.db.prepare('SELECT count(*) AS n FROM jobs').get() as { n: number };
    store.close();
    expect(studies.n).toBe(0);
    expect(jobs.n).toBe(0);
  });
});
