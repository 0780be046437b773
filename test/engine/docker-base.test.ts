import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { envCommand } from '../../src/main/cli/env';
import { ensureBaseImage } from '../../src/main/engine/environments/docker/bootstrap';
import { listManagedContainers } from '../../src/main/engine/environments/docker/orphans';
import { prepareItem, type PreparedItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { provisionEnvironment } from '../../src/main/engine/environments/provision';
import { defaultToolLimits, type ToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { trajectorySchema } from '../../src/shared/trajectory';
import { dockerForTest } from '../helpers/docker';
import { baseImageForTest } from '../helpers/docker-images';

const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const item = `docker-base-${run}`;
const docker = new Docker();
const limits: ToolLimits = { ...defaultToolLimits, commandTimeoutMs: 10_000 };
let available = false;
let prepared: PreparedItem;
const progress: string[] = [];

const bash = (id: string, command: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [
    { id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } },
  ],
});
const trajectory = trajectorySchema.parse([
  { role: 'user', content: 'Turn debug on, add the user carol, and compute the answer.' },
  bash('c1', 'sed -i "s/false/true/" app/config.json'),
  bash('c2', `sqlite3 data/app.db "INSERT INTO users(name) VALUES ('carol')"`),
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'c3', function: { name: 'read_file', arguments: '{"path":"app/config.json"}' } },
    ],
  },
  bash('c4', 'cat missing.txt'),
  bash('c5', 'python3 -c "print(6 * 7)" > answer.txt'),
  { role: 'assistant', content: 'Done.' },
]);
const spec = environmentSpecSchema.parse({
  shell: true,
  replay: true,
  files: { 'app/config.json': '{"debug": false}\n', 'run.txt': run },
  database: {
    path: 'data/app.db',
    sql: "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, avatar BLOB); INSERT INTO users(name, avatar) VALUES ('alice', x'010203'), ('bob', NULL);",
  },
});

function needDocker(context: TestContext): void {
  if (!available) context.skip(skipReason);
}

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  if (!available) return;
  await baseImageForTest(docker);
  prepared = await prepareItem(spec, item, {
    trajectory,
    onProgress: (line) => progress.push(line),
  });
}, 600_000);

afterAll(async () => {
  if (prepared)
    await docker
      .getImage(prepared.image)
      .remove({ force: true })
      .catch(() => undefined);
});

describe('Docker environment on the bootstrapped base image', () => {
  it('reuses the base image for an unchanged recipe ("already built")', async (context) => {
    needDocker(context);
    const started = Date.now();
    const lines: string[] = [];
    const base = await ensureBaseImage({ docker, onProgress: (line) => lines.push(line.message) });
    expect(base.built).toBe(false);
    expect(base.tag).toMatch(/^cuelab\/base:[0-9a-f]{16}$/);
    expect(lines.at(-1)).toMatch(/already built/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await docker.getImage('cuelab/base:latest').inspect()).toMatchObject({ Id: base.id });
  });

  it('says "already built" from the CLI, and refuses to build without root', async (context) => {
    needDocker(context);
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(await envCommand.run(['bootstrap'], io)).toBe(0);
    expect(lines.at(-1)).toMatch(/^cuelab\/base:[0-9a-f]{16} is already built \(\d+ MB\)/);
    const getuid = vi.spyOn(process, 'getuid').mockReturnValue(1000);
    try {
      await expect(ensureBaseImage({ docker, force: true })).rejects.toThrow(
        /needs root[\s\S]*sudo cuelab env bootstrap/,
      );
    } finally {
      getuid.mockRestore();
    }
  });

  it("replays the agent's shell actions in order to rebuild its end state", async (context) => {
    needDocker(context);
    expect(prepared.tools).toEqual({ timeout: true, python3: true, sqlite3: true });
    expect(progress).toContain('replayed command 3 exited 1: cat missing.txt');
    await withRep(prepared, async ({ environment }) => {
      const state = await environment.exec(
        'cat app/config.json answer.txt; stat -c %U data/app.db',
        limits,
      );
      expect(state).toMatchObject({ stdout: '{"debug": true}\n42\nagent\n', exitCode: 0 });
    });
  });

  it('answers read-only SQL with columns, a row cap and described blobs', async (context) => {
    needDocker(context);
    // python3 first; images with only the sqlite3 command use `sqlite3 -readonly -json`.
    const cliOnly: PreparedItem = { ...prepared, tools: { ...prepared.tools, python3: false } };
    for (const item of [prepared, cliOnly]) {
      await withRep(item, async ({ environment }) => {
        expect(environment.capabilities).toEqual({ shell: true, files: true, sql: true });
        const all = await environment.sqlQuery('SELECT id, name FROM users ORDER BY id', limits);
        expect(all).toEqual({
          columns: ['id', 'name'],
          rows: [
            [1, 'alice'],
            [2, 'bob'],
            [3, 'carol'],
          ],
          truncated: false,
        });
        const capped = await environment.sqlQuery('SELECT name FROM users ORDER BY id', {
          ...limits,
          maxRows: 2,
        });
        expect(capped).toEqual({ columns: ['name'], rows: [['alice'], ['bob']], truncated: true });
        await expect(environment.sqlQuery('DELETE FROM users', limits)).rejects.toThrow(
          /readonly|read-only/i,
        );
        await expect(environment.sqlQuery('SELECT nope FROM users', limits)).rejects.toThrow(
          /no such column/,
        );
      });
    }
    await withRep(prepared, async ({ environment }) => {
      const blob = await environment.sqlQuery('SELECT avatar FROM users WHERE id = 1', limits);
      expect(blob.rows).toEqual([['<blob 3 bytes>']]);
    });
  });

  it('kills a timed-out command and its process group with GNU timeout inside the container', async (context) => {
    needDocker(context);
    await withRep(prepared, async ({ environment }) => {
      const started = Date.now();
      const result = await environment.exec('sleep 30 & sleep 31', {
        ...limits,
        commandTimeoutMs: 1000,
      });
      expect(result).toMatchObject({ exitCode: null, timedOut: true });
      expect(Date.now() - started).toBeLessThan(3000);
      const left = await environment.exec('ps -eo args | grep "^sleep 3[01]"; echo ok', limits);
      expect(left.stdout).toBe('ok\n');
    });
  });

  it('provisions Docker for a shell item and the snapshot backend for a files-only item', async (context) => {
    needDocker(context);
    const shellItem = await provisionEnvironment(spec, { id: item, trajectory });
    try {
      expect(shellItem.backend).toBe('docker');
      expect((await shellItem.environment.exec('cat answer.txt', limits)).stdout).toBe('42\n');
    } finally {
      await shellItem.dispose();
    }
    const filesOnly = environmentSpecSchema.parse({ files: { 'a.txt': 'a' } });
    const snapshot = await provisionEnvironment(filesOnly, { id: `${item}-files` });
    try {
      expect(snapshot.backend).toBe('snapshot');
      expect(snapshot.environment.capabilities.shell).toBe(false);
    } finally {
      await snapshot.dispose();
    }
    await expect(
      provisionEnvironment(spec, { id: item, trajectory }, { backend: 'snapshot' }),
    ).rejects.toThrow(/needs a container/);
    expect(await listManagedContainers(docker, { item })).toEqual([]);
  });
});
