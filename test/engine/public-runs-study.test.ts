/**
 * From a public format to a table, offline: the Terminal-Bench task folder and its `tb run`
 * trial (test/fixtures/import/terminal-bench-context) → `cuelab suite import` → a study judged
 * by a scripted model behind the local OpenAI/Anthropic-compatible fake server (the real SDK)
 * in the item's own container, built from the task's Dockerfile with its COPY'd files → the
 * flip table. Needs Docker: skipped without it, failed when CUELAB_REQUIRE_DOCKER=1.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { prepareItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { importRuns } from '../../src/main/engine/suites/import';
import { dockerForTest } from '../helpers/docker';
import { baseImageForTest } from '../helpers/docker-images';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { deferentialJudge } from '../helpers/scripted-judge';
import { runCuelab } from '../helpers/cuelab-process';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const fixture = join(root, 'test', 'fixtures', 'import', 'terminal-bench-context');
const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
let available = false;

const cuelab = runCuelab;

function needDocker(context: TestContext): void {
  if (!available) context.skip(skipReason);
}

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  // The task's Dockerfile starts FROM the local base image (no registry answers here).
  if (available) await baseImageForTest(new Docker());
}, 900_000);

describe('an imported Terminal-Bench task in Docker', () => {
  it("builds from the task's Dockerfile with the files it COPYs, in its WORKDIR", async (context) => {
    needDocker(context);
    const item = importRuns({ path: fixture, format: 'terminal-bench' }).suite.items[0]!;
    const prepared = await prepareItem(item.environment, `import-${item.id}`);
    await withRep(prepared, async ({ environment }) => {
      const result = await environment.exec('pwd; cat .origin; cat /data/input.txt', {
        ...defaultToolLimits,
        commandTimeoutMs: 20_000,
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(
        '/srv/work\nbuilt-from-context\nthe quick brown fox jumps over the lazy dog\n',
      );
    });
  }, 600_000);
});

describe('public format to flip table', { timeout: 600_000 }, () => {
  const dir = makeTempDir();
  const workspace = join(dir.path, 'workspace');
  let model: FakeModelServer;
  const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'test-key', CUELAB_WORKSPACE: workspace };

  beforeAll(async () => {
    if (!existsSync(join(root, 'out', 'main', 'cli.js')))
      throw new Error('run "npx electron-vite build" first');
    model = await startFakeModelServer();
    model.handle('anthropic', deferentialJudge());
  });
  afterAll(async () => {
    await model.close();
    dir.remove();
  });

  it('imports the trial, judges it in its container and tabulates the flips', async (context) => {
    needDocker(context);
    const imported = await cuelab(['suite', 'import', fixture, '--name', 'tb-public'], env);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('Imported 1 of 1 runs into suite tb-public');
    expect(imported.stdout).toMatch(/count-words\.1-of-1\.terminus\s+terminal-bench\s+pass\s+7/);
    const spec = join(dir.path, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        name: 'public runs end to end',
        suite: 'tb-public',
        judges: [
          { id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: model.url },
        ],
        reps: 2,
        concurrency: { total: 1, containers: 1 },
      }),
    );
    const run = await cuelab(['run', spec, '--trust-endpoint', model.url], env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Completed.');
    const table = await cuelab(['report', 'latest', '--table', 'flips', '--format', 'json'], env);
    expect(table.code).toBe(0);
    const flips = JSON.parse(table.stdout) as {
      simulated: boolean;
      rows: { scope: string; dataset: string; n: number; gate: number; harmful: number }[];
    };
    // The judge passes the uncued control (gold pass) and fails every severity-cued rep.
    const cell = flips.rows.find((row) => row.scope === 'judge-dataset');
    expect(cell).toMatchObject({ dataset: 'terminal-bench', n: 1, gate: 1, harmful: 1 });
    expect(flips.simulated).toBe(false);
    // The judge looked around the container built from the task's files (list_dir of /srv/work).
    const seen = JSON.stringify(model.requests('anthropic').map((request) => request.body));
    expect(seen).toContain('.origin');
  });
});
