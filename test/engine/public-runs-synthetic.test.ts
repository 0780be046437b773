/**
 * An offline pilot on public runs: two Terminal-Bench trials (the real hello-world trial of
 * test/fixtures/import/terminal-bench and the count-words trial of terminal-bench-context, with
 * their task folders) → `cuelab suite import` → a study with the synthetic judge, which has no
 * probes to run on them and reads their trajectories → verdicts on every rep and a flip table
 * marked simulated. Real Docker (each item's container is built from its task's Dockerfile):
 * skipped without it, failed when CUELAB_REQUIRE_DOCKER=1.
 */
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerForTest } from '../helpers/docker';
import { baseImageForTest } from '../helpers/docker-images';
import { runCuelab } from '../helpers/cuelab-process';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures', 'import');

const cuelab = runCuelab;

describe('a synthetic-judge study on imported Terminal-Bench runs', { timeout: 900_000 }, () => {
  const dir = makeTempDir();
  const env: NodeJS.ProcessEnv = { CUELAB_WORKSPACE: join(dir.path, 'workspace') };
  let available = false;

  beforeAll(async () => {
    if (!existsSync(join(root, 'out', 'main', 'cli.js')))
      throw new Error('run "npx electron-vite build" first');
    available = (await dockerForTest()) !== null;
    if (available) await baseImageForTest(new Docker());
  }, 900_000);
  afterAll(() => dir.remove());

  it('completes with a verdict on every rep of both runs', async (context) => {
    if (!available) {
      context.skip('Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)');
      return;
    }
    // Both trials and their tasks in one folder, as a user's runs would be.
    const runs = join(dir.path, 'runs');
    cpSync(
      join(fixtures, 'terminal-bench', 'run', 'hello-world'),
      join(runs, 'run', 'hello-world'),
      {
        recursive: true,
      },
    );
    cpSync(join(fixtures, 'terminal-bench', 'tasks'), join(runs, 'tasks'), { recursive: true });
    cpSync(join(fixtures, 'terminal-bench-context'), runs, { recursive: true });
    const imported = await cuelab(['suite', 'import', runs, '--name', 'tb-runs'], env);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('Imported 2 of 2 runs into suite tb-runs');
    const spec = join(dir.path, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        name: 'pilot on public runs',
        suite: 'tb-runs',
        judges: [
          { id: 'sim', provider: 'synthetic', model: 'synthetic', persona: 'deferential-frontier' },
        ],
        reps: 3,
        direction: 'severity',
        arms: { cues: [{ kind: 'preset', preset: 'strong' }], placements: ['system'] },
        concurrency: { total: 2, containers: 2 },
      }),
    );
    const run = await cuelab(['run', spec], env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Completed.');
    expect(run.stdout).not.toContain('has no probes');
    // 2 runs × (uncued + severity) × 3 reps, none failed.
    expect(run.stdout).toMatch(/\[12\/12\] 100% .* 0 failed/);
    const table = await cuelab(['report', 'latest', '--table', 'flips', '--format', 'json'], env);
    expect(table.code).toBe(0);
    const flips = JSON.parse(table.stdout) as {
      simulated: boolean;
      rows: { scope: string; dataset: string; n: number }[];
    };
    expect(flips.simulated).toBe(true);
    // Both runs have gold pass and both arms: each is an item of the judge × dataset cell.
    const cell = flips.rows.find((row) => row.scope === 'judge-dataset');
    expect(cell).toMatchObject({ dataset: 'terminal-bench', n: 2 });
  });
});
