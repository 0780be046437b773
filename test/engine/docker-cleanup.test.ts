import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { containerLabels, dockerLabels } from '../../src/main/engine/environments/docker/client';
import {
  listManagedContainers,
  removeOrphans,
} from '../../src/main/engine/environments/docker/orphans';
import { prepareItem, type PreparedItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits, type ToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';

// Every path leaves no container behind: success, a crash inside a rep, an abort mid-command,
// a failing or aborted prepare, and a crashed engine (orphans). Asserted by listing labels.
const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const item = `docker-cleanup-${run}`;
const docker = new Docker();
const limits: ToolLimits = { ...defaultToolLimits, commandTimeoutMs: 10_000 };
let available = false;
let busybox = '';
let prepared: PreparedItem | undefined;

function needDocker(context: TestContext): PreparedItem {
  if (!available || !prepared) context.skip(skipReason);
  return prepared;
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
    files: { 'run.txt': run },
  });
  prepared = await prepareItem(spec, item);
});

afterAll(async () => {
  if (prepared)
    await docker
      .getImage(prepared.image)
      .remove({ force: true })
      .catch(() => undefined);
});

describe('Docker environment: nothing is left behind', () => {
  it('removes the rep container when the work throws', async (context) => {
    const prepared = needDocker(context);
    let containerId = '';
    await expect(
      withRep(prepared, async (rep) => {
        containerId = rep.containerId;
        expect((await itemContainers()).map((container) => container.Id)).toContain(containerId);
        throw new Error('the judge crashed');
      }),
    ).rejects.toThrow('the judge crashed');
    expect(containerId).not.toBe('');
    expect(await itemContainers()).toEqual([]);
  });

  it('removes the rep container when the rep is aborted mid-command', async (context) => {
    const prepared = needDocker(context);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('study paused')), 500);
    await expect(
      withRep(prepared, (rep) => rep.environment.exec('sleep 30', limits, controller.signal), {
        signal: controller.signal,
      }),
    ).rejects.toThrow('study paused');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await itemContainers()).toEqual([]);
  });

  it('removes the prepare container when setup fails or is aborted', async (context) => {
    needDocker(context);
    const failing = environmentSpecSchema.parse({
      image: busybox,
      files: { 'run.txt': run },
      setup: ['echo oops >&2; exit 7'],
    });
    await expect(prepareItem(failing, `${item}-fail`)).rejects.toThrow(
      /Setup command 1 .* failed \(exit 7\).*\n.*oops/,
    );
    expect(await itemContainers(`${item}-fail`)).toEqual([]);
    const missing = environmentSpecSchema.parse({
      image: busybox,
      files: { 'run.txt': run },
      database: { path: 'app.db' },
    });
    await expect(prepareItem(missing, `${item}-fail`)).rejects.toThrow(
      /Health check failed: app\.db missing/,
    );
    const slow = environmentSpecSchema.parse({
      image: busybox,
      files: { 'run.txt': run },
      setup: ['sleep 30'],
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 700);
    await expect(prepareItem(slow, `${item}-fail`, { signal: controller.signal })).rejects.toThrow(
      'cancelled',
    );
    expect(await itemContainers(`${item}-fail`)).toEqual([]);
  });

  it('removes orphans: containers whose engine process is gone', async (context) => {
    const prepared = needDocker(context);
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    expect(dead).toBeGreaterThan(0);
    const create = (pid: number) =>
      docker.createContainer({
        Image: prepared.image,
        Cmd: ['true'],
        Labels: {
          ...containerLabels(`${item}-orphan`, 'rep'),
          [dockerLabels.enginePid]: String(pid),
        },
      });
    const orphan = await create(dead);
    const live = await create(process.pid);
    try {
      const removed = await removeOrphans({ docker });
      expect(removed).toContain(orphan.id);
      expect(removed).not.toContain(live.id);
      expect((await itemContainers(`${item}-orphan`)).map((container) => container.Id)).toEqual([
        live.id,
      ]);
    } finally {
      await live.remove({ force: true });
      await orphan.remove({ force: true }).catch(() => undefined);
    }
  });
});
