/**
 * Imported SWE-bench runs against the real Docker engine. No registry answers here, so the
 * instance's eval image is a local stand-in built FROM the CueLab base image and tagged with
 * the real name: `cuelab env pull` finds it and names the exact `docker pull` for the one
 * that is missing; the item's snapshot has the run's model_patch applied in /testbed; a rep
 * whose image is missing fails with the `docker pull` to run. Imported MCPMark runs are rebuilt:
 * a Postgres run's item holds the task's initial database with the agent's successful
 * `execute_sql` statements replayed against the real server, and a filesystem run's
 * the category's initial state with the agent's file operations replayed, byte-exact.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { ensurePostgresImage } from '../../src/main/engine/environments/docker/bootstrap';
import { packArchive } from '../../src/main/engine/environments/docker/archive';
import { splitReference } from '../../src/main/engine/environments/docker/images';
import { prepareItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { importRuns } from '../../src/main/engine/suites/import';
import { dockerForTest } from '../helpers/docker';
import { baseImageForTest } from '../helpers/docker-images';
import { makeTempDir } from '../helpers/temp-dir';
import { postgresOf } from '../../src/shared/substrates/postgres';

const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const docker = new Docker();
const run = join(__dirname, '..', 'fixtures', 'import', 'mini-swe-agent', 'run');
const outcome = importRuns({ path: run, format: 'mini-swe-agent' });
const present = outcome.suite.items.find((item) => item.id === 'django__django-14752')!;
const missing = outcome.suite.items.find((item) => item.id === 'django__django-13660')!;
const mcpmark = join(__dirname, '..', 'fixtures', 'import', 'mcpmark');
const mcpmarkRuns = importRuns({ path: mcpmark, format: 'mcpmark' }).suite.items;
const postgresRun = mcpmarkRuns.find((item) => item.substrate === 'postgres')!;
const filesRun = mcpmarkRuns.find((item) => item.id.startsWith('gpt-5__filesystem'))!;
const created: string[] = [];
let available = false;

/**
 * The files the patch touches as they were before it (each hunk's context and removed lines),
 * so the stand-in's /testbed takes the agent's real patch as SWE-bench's image would.
 */
function preImages(patch: string): Record<string, string> {
  const files: Record<string, string> = {};
  let current: string | undefined;
  for (const line of patch.split('\n')) {
    const header = /^diff --git a\/(\S+) b\//.exec(line);
    if (header) current = header[1];
    else if (current && /^[ -]/.test(line) && !line.startsWith('---')) {
      files[`testbed/${current}`] = (files[`testbed/${current}`] ?? '') + `${line.slice(1)}\n`;
    }
  }
  return files;
}

/** Defines `conda activate ENV` as conda.sh does: the env's name and bin folder in the shell. */
const fakeConda = `conda() {
  [ "$1" = activate ] || return 1
  CONDA_DEFAULT_ENV=$2; PATH=/opt/miniconda3/envs/$2/bin:$PATH; export CONDA_DEFAULT_ENV PATH
}
`;

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  if (!available) return;
  const base = await baseImageForTest(docker);
  await ensurePostgresImage({ docker });
  const setup = present.environment.setup?.[0] ?? '';
  const patch = setup.slice(setup.indexOf('\n') + 1, setup.lastIndexOf('\nCUELAB_MODEL_PATCH'));
  const tag = present.environment.image!;
  // Built by hand (create, copy, run, commit) with no network: this host's builder has none.
  const container = await docker.createContainer({
    Image: base.tag,
    Cmd: [
      'sh',
      '-c',
      'cd /testbed && git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm base',
    ],
    HostConfig: { NetworkMode: 'none' },
    Labels: { 'cuelab.test': 'suite-import' },
  });
  try {
    const archive = await packArchive([
      ...Object.entries(preImages(patch)).map(([path, content]) => ({ path, content })),
      // Conda's activation script as the eval images have it; a stand-in for the real one.
      { path: 'opt/miniconda3/etc/profile.d/conda.sh', content: fakeConda },
    ]);
    await container.putArchive(archive, { path: '/' });
    await container.start();
    const exit = (await container.wait()) as { StatusCode: number };
    expect(exit.StatusCode).toBe(0);
    const { repo, tag: version } = splitReference(tag);
    await container.commit({ repo, tag: version });
    created.push(tag);
  } finally {
    await container.remove({ force: true });
  }
}, 900_000);

afterAll(async () => {
  for (const image of created) {
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
  }
});

function needDocker(context: TestContext): void {
  if (!available) context.skip(skipReason);
}

describe('imported SWE-bench environments in Docker', () => {
  it('cuelab env pull finds the stand-in and names the exact docker pull for the missing image', async (context) => {
    needDocker(context);
    const workspace = makeTempDir();
    try {
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
      const flags = ['--workspace', workspace.path];
      expect(await runCli(['suite', 'import', run, '--name', 'swe', ...flags], io)).toBe(0);
      expect(await runCli(['env', 'pull', 'swe', ...flags], io)).toBe(1);
      expect(out).toContain(`present  ${present.environment.image!} (1 item)`);
      expect(err.join('\n')).toContain(`missing  ${missing.environment.image!} (1 item): `);
      expect(err.join('\n')).toContain(`run: docker pull ${missing.environment.image!}`);
    } finally {
      workspace.remove();
    }
  });

  it('restores the agent end state: the model patch applied in /testbed of the eval image', async (context) => {
    needDocker(context);
    const prepared = await prepareItem(present.environment, `import-${present.id}`);
    created.push(prepared.image);
    await withRep(prepared, async ({ environment }) => {
      const result = await environment.exec(
        'pwd; whoami; echo "$CONDA_DEFAULT_ENV"; git status --short; ' +
          'grep -c "def serialize_result" django/contrib/admin/views/autocomplete.py',
        { ...defaultToolLimits, commandTimeoutMs: 20_000 },
      );
      expect(result.exitCode).toBe(0);
      // As the image's own non-root user, with the testbed env activated as the eval images do.
      expect(result.stdout).toBe(
        '/testbed\nnonroot\ntestbed\n M django/contrib/admin/views/autocomplete.py\n1\n',
      );
    });
  });

  it('a rep whose image is missing fails with the docker pull to run', async (context) => {
    needDocker(context);
    await expect(prepareItem(missing.environment, `import-${missing.id}`)).rejects.toThrow(
      `run: docker pull ${missing.environment.image!}`,
    );
  });
});

describe('imported MCPMark runs in Docker', () => {
  it('a postgres run: the initial database with the agent SQL replayed, served read-only', async (context) => {
    needDocker(context);
    expect(postgresOf(postgresRun.environment)).toMatchObject({
      database: 'chinook',
      access: 'read-only',
    });
    const prepared = await prepareItem(postgresRun.environment, `import-${postgresRun.id}`, {
      trajectory: postgresRun.trajectory,
    });
    created.push(prepared.image);
    await withRep(prepared, async ({ environment }) => {
      const result = await environment.sqlQuery(
        'SELECT "EmployeeId", "Title", "Phone" FROM "Employee" ' +
          `WHERE "EmployeeId" IN (1, 2) OR "Title" LIKE 'IT%' ORDER BY 1`,
        defaultToolLimits,
      );
      // The run's updates are there; its failed (unquoted) UPDATE changed nothing, as in the run.
      expect(result.rows).toEqual([
        ['1', 'CEO', '+1 (780) 428-9482'],
        ['2', 'Sales Manager', '+1 (403) 555-9999'],
        ['6', 'IT Manager', '+1 (403) 246-9887'],
        ['7', 'IT Specialist', '+1 (403) 456-9986'],
        ['8', 'IT Specialist', '+1 (403) 467-3351'],
      ]);
      await expect(
        environment.sqlQuery(`UPDATE "Employee" SET "Title" = 'x'`, defaultToolLimits),
      ).rejects.toThrow(/read-only transaction/);
    });
  }, 300_000);

  it('a filesystem run: the initial state with the agent file operations replayed', async (context) => {
    needDocker(context);
    const prepared = await prepareItem(filesRun.environment, `import-${filesRun.id}`);
    created.push(prepared.image);
    const original = readFileSync(join(mcpmark, 'test_environments', 'file_property', 'sg.jpg'));
    await withRep(prepared, async ({ environment }) => {
      const listing = await environment.exec(
        'ls; sha256sum largest.jpg; ls notes 2>&1 | head -1',
        defaultToolLimits,
      );
      expect(listing.exitCode).toBe(0);
      const digest = createHash('sha256').update(original).digest('hex');
      // sg.jpg moved to largest.jpg byte for byte; the write that failed in the run is absent.
      expect(listing.stdout).toBe(
        [
          'bear.jpg',
          'bridge.jpg',
          'bus.MOV',
          'largest.jpg',
          'random_file_1.txt',
          'random_file_2.txt',
          'random_file_3.txt',
          'road.MOV',
          `${digest}  largest.jpg`,
          "ls: cannot access 'notes': No such file or directory",
          '',
        ].join('\n'),
      );
    });
  }, 300_000);
});
