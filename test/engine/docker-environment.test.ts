import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { listManagedContainers } from '../../src/main/engine/environments/docker/orphans';
import { prepareItem, type PreparedItem } from '../../src/main/engine/environments/docker/prepare';
import { startRep, withRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits, type ToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';

const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const item = `docker-env-${run}`;
const docker = new Docker();
const limits: ToolLimits = { ...defaultToolLimits, commandTimeoutMs: 10_000 };
let available = false;
let busybox = '';
let prepared: PreparedItem;
const createdImages = new Set<string>();

function needDocker(context: TestContext): void {
  if (!available) context.skip(skipReason);
}

async function itemContainers(id = item): Promise<Docker.ContainerInfo[]> {
  return listManagedContainers(docker, { item: id });
}

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  if (!available) return;
  busybox = await busyboxImage(docker);
  const spec = environmentSpecSchema.parse({
    image: busybox,
    shell: true,
    files: { 'report.md': '# Report\nall good\n', 'notes/run.txt': run },
    setup: ['echo "made by setup" > setup.txt', 'ln -s report.md latest.md', 'mkdir -p out'],
  });
  prepared = await prepareItem(spec, item);
  createdImages.add(prepared.image);
});

afterAll(async () => {
  for (const image of createdImages) {
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
  }
});

describe('Docker environment: item snapshots and reps', () => {
  it('restores the item to its end state once, then reuses the snapshot', async (context) => {
    needDocker(context);
    expect(prepared.reused).toBe(false);
    expect(prepared.image).toMatch(/^cuelab\/item:[0-9a-f]{24}$/);
    const again = await prepareItem(
      environmentSpecSchema.parse({
        image: busybox,
        shell: true,
        files: { 'report.md': '# Report\nall good\n', 'notes/run.txt': run },
        setup: ['echo "made by setup" > setup.txt', 'ln -s report.md latest.md', 'mkdir -p out'],
      }),
      item,
    );
    expect(again).toMatchObject({ image: prepared.image, reused: true, tools: prepared.tools });
    await withRep(prepared, async ({ environment }) => {
      expect(environment.capabilities).toEqual({ shell: true, files: true, sql: false });
      const state = await environment.exec('pwd; cat notes/run.txt; echo; cat setup.txt', limits);
      expect(state).toMatchObject({ stdout: `/workspace\n${run}\nmade by setup\n`, exitCode: 0 });
      expect(await environment.readFile('report.md', limits)).toEqual({
        content: '# Report\nall good\n',
        truncated: false,
      });
      expect(
        await environment.readFile('/workspace/report.md', { ...limits, maxOutputBytes: 8 }),
      ).toEqual({
        content: '# Report',
        truncated: true,
      });
      await expect(environment.readFile('missing.txt', limits)).rejects.toThrow(/missing\.txt/);
      const entries = await environment.listDir('.');
      expect(entries.map(({ name, type }) => `${type} ${name}`)).toEqual([
        'symlink latest.md',
        'directory notes',
        'directory out',
        'file report.md',
        'file setup.txt',
      ]);
      expect(entries.find((entry) => entry.name === 'report.md')?.size).toBe(18);
      await expect(environment.listDir('nowhere')).rejects.toThrow(/nowhere/);
    });
  });

  it("gives every rep a fresh container: rep A's changes are invisible to rep B", async (context) => {
    needDocker(context);
    const [first, second] = await Promise.all([startRep(prepared), startRep(prepared)]);
    try {
      const write = await first.environment.exec(
        'echo secret > from-a.txt && echo changed > report.md && touch /tmp/a-was-here',
        limits,
      );
      expect(write.exitCode).toBe(0);
      expect((await first.environment.exec('cat from-a.txt', limits)).stdout).toBe('secret\n');
      const look = await second.environment.exec(
        'ls from-a.txt /tmp/a-was-here 2>&1; cat report.md',
        limits,
      );
      expect(look.stdout).toContain('from-a.txt: No such file or directory');
      expect(look.stdout).toContain('/tmp/a-was-here: No such file or directory');
      expect(look.stdout).toContain('# Report\nall good\n');
    } finally {
      await Promise.all([first.dispose(), second.dispose()]);
    }
    expect(await itemContainers()).toEqual([]);
  });

  it('runs commands with stdout, stderr and the exit code apart', async (context) => {
    needDocker(context);
    await withRep(prepared, async ({ environment }) => {
      const result = await environment.exec('echo out; echo err >&2; exit 3', limits);
      expect(result).toEqual({
        stdout: 'out\n',
        stderr: 'err\n',
        exitCode: 3,
        timedOut: false,
        truncated: false,
      });
    });
  });

  it('kills a command and its children at the timeout (busybox: from the engine)', async (context) => {
    needDocker(context);
    // Busybox has no GNU timeout, so the engine's deadline kills the process tree.
    expect(prepared.tools.timeout).toBe(false);
    await withRep(prepared, async ({ environment }) => {
      const started = Date.now();
      const result = await environment.exec('echo started; sleep 30 & sleep 31; echo never', {
        ...limits,
        commandTimeoutMs: 1000,
      });
      expect(Date.now() - started).toBeLessThan(4000);
      expect(result).toMatchObject({ stdout: 'started\n', exitCode: null, timedOut: true });
      const after = await environment.exec('ps -o args | grep "sleep 3[01]"; echo ok', limits);
      expect(after.stdout).toBe('ok\n');
    });
  });

  it('returns when the command exits, even if a background process keeps its output open', async (context) => {
    needDocker(context);
    await withRep(prepared, async ({ environment }) => {
      const started = Date.now();
      const result = await environment.exec('sleep 20 & echo launched', limits);
      expect(result).toMatchObject({ stdout: 'launched\n', exitCode: 0, timedOut: false });
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });

  it('caps output in bytes and stops an output flood', async (context) => {
    needDocker(context);
    await withRep(prepared, async ({ environment }) => {
      const capped = await environment.exec('yes | head -c 100000; echo tail >&2', {
        ...limits,
        maxOutputBytes: 1000,
      });
      // Each stream has its own cap, so the result does not depend on arrival order.
      expect(capped.stdout).toBe('y\n'.repeat(500));
      expect(capped).toMatchObject({
        stderr: 'tail\n',
        exitCode: 0,
        truncated: true,
        timedOut: false,
      });
      const started = Date.now();
      const flood = await environment.exec('yes', {
        ...limits,
        commandTimeoutMs: 30_000,
        maxOutputBytes: 100,
      });
      expect(flood).toMatchObject({ exitCode: null, truncated: true });
      expect(flood.stdout).toHaveLength(100);
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });

  it('has no network unless the spec asks for it', async (context) => {
    needDocker(context);
    await withRep(prepared, async ({ environment }) => {
      const interfaces = await environment.exec('ls /sys/class/net', limits);
      expect(interfaces.stdout.split(/\s+/).filter(Boolean)).toEqual(['lo']);
    });
  });

  it('runs as the non-root user "agent" by default, as root when the spec says so', async (context) => {
    needDocker(context);
    await withRep(prepared, async ({ environment }) => {
      const who = await environment.exec(
        'id -un; id -u; touch mine.txt && echo wrote; touch /root/x',
        limits,
      );
      expect(who.stdout).toBe('agent\n1000\nwrote\n');
      expect(who.stderr).toMatch(/Permission denied/);
    });
    // A root judge is beyond the default container cap: the user (not the suite) allows it.
    vi.stubEnv('CUELAB_CONTAINER_ALLOW_ROOT', '1');
    const rootItem = await prepareItem(
      environmentSpecSchema.parse({
        image: busybox,
        shell: true,
        user: 'root',
        files: { 'run.txt': run },
      }),
      `${item}-root`,
    );
    createdImages.add(rootItem.image);
    await withRep(rootItem, async ({ environment }) => {
      expect((await environment.exec('id -u', limits)).stdout).toBe('0\n');
    });
    vi.unstubAllEnvs();
  });

  it('has a network interface when the spec asks for network', async (context) => {
    needDocker(context);
    vi.stubEnv('CUELAB_CONTAINER_ALLOW_NETWORK', '1');
    const networked = await prepareItem(
      environmentSpecSchema.parse({
        image: busybox,
        shell: true,
        network: true,
        files: { 'run.txt': run },
      }),
      `${item}-net`,
    );
    createdImages.add(networked.image);
    await withRep(networked, async ({ environment }) => {
      expect(environment.description).not.toMatch(/without network/);
      const interfaces = await environment.exec('ls /sys/class/net', limits);
      expect(interfaces.stdout.split(/\s+/)).toContain('eth0');
    });
    vi.unstubAllEnvs();
  });
});
