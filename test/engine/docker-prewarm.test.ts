// Rep containers made ahead (environments/docker/prewarm.ts) on a real Docker engine: reps take
// them oldest first, a rep never gets a container another rep ran in, and none outlives the
// run — not when it is taken, not when a study is paused or cancelled, not when the runner
// stops, not when the engine is killed with SIGKILL.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { dockerLabels } from '../../src/main/engine/environments/docker/client';
import {
  listManagedContainers,
  removeOrphans,
} from '../../src/main/engine/environments/docker/orphans';
import { prepareItem, type PreparedItem } from '../../src/main/engine/environments/docker/prepare';
import { RepPrewarmer } from '../../src/main/engine/environments/docker/prewarm';
import { startRep } from '../../src/main/engine/environments/docker/rep';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';

const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const item = `docker-prewarm-${run}`;
const docker = new Docker();
let prepared: PreparedItem | undefined;

beforeAll(async () => {
  if (!(await dockerForTest())) return;
  const image = await busyboxImage(docker);
  const spec = environmentSpecSchema.parse({ image, shell: true, files: { 'run.txt': run } });
  prepared = await prepareItem(spec, item, { docker });
}, 120_000);

afterAll(async () => {
  for (const container of await listManagedContainers(docker, { item }).catch(() => []))
    await docker
      .getContainer(container.Id)
      .remove({ force: true })
      .catch(() => undefined);
  if (prepared)
    await docker
      .getImage(prepared.image)
      .remove({ force: true })
      .catch(() => undefined);
});

function need(context: TestContext): PreparedItem {
  if (!prepared) context.skip(skipReason);
  return prepared;
}

async function itemContainerIds(id = item): Promise<string[]> {
  return (await listManagedContainers(docker, { item: id })).map((container) => container.Id);
}

/** Waits until Docker lists `count` containers of the item. */
async function untilContainers(count: number, id = item): Promise<string[]> {
  for (;;) {
    const ids = await itemContainerIds(id);
    if (ids.length === count) return ids;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Drains `warm` and checks that no container of the item is left. */
async function expectDrained(warm: RepPrewarmer): Promise<void> {
  await warm.drain();
  expect(await itemContainerIds()).toEqual([]);
}

describe('rep containers made ahead', () => {
  it('are taken oldest first, each by one rep, and a rep never sees what another did', async (context) => {
    const prepared = need(context);
    const warm = new RepPrewarmer({ limit: () => 3 });
    const target = { warm, host: 'local' };
    warm.prepareNext('local', docker, prepared);
    const [first = ''] = await untilContainers(1);
    warm.prepareNext('local', docker, prepared);
    const second = (await untilContainers(2)).find((id) => id !== first) ?? '';

    const one = await startRep(prepared, { docker, prewarm: target });
    expect(one.containerId).toBe(first);
    const limits = { ...defaultToolLimits, commandTimeoutMs: 10_000 };
    await one.environment.exec('echo dirty > run.txt', limits);
    await one.dispose();
    expect(await itemContainerIds()).not.toContain(first);

    const two = await startRep(prepared, { docker, prewarm: target });
    expect(two.containerId).toBe(second);
    expect((await two.environment.exec('cat run.txt', limits)).stdout.trim()).toBe(run);
    await two.dispose();

    // Each of the two reps had the next one made meanwhile; nobody takes them now.
    expect(warm.counts()).toMatchObject({ created: 4, taken: 2, waiting: 2 });
    await expectDrained(warm);
  }, 60_000);

  it('removes those of a study that stopped running, and keeps the others', async (context) => {
    const prepared = need(context);
    const warm = new RepPrewarmer({ limit: () => 2 });
    warm.prepareNext('local', docker, prepared, { study: 'paused' });
    warm.prepareNext('local', docker, prepared, { study: 'running' });
    await untilContainers(2);
    warm.retain(['running']);
    await untilContainers(1);
    expect(warm.counts().waiting).toBe(1);
    // A rep of the paused study finds nothing made for it: it starts its own.
    const rep = await startRep(prepared, {
      docker,
      owner: { study: 'paused' },
      prewarm: { warm, host: 'local' },
    });
    expect(warm.counts().taken).toBe(0);
    await rep.dispose();
    await expectDrained(warm);
  }, 60_000);

  it('never hands a rep one that died while it waited', async (context) => {
    const prepared = need(context);
    const warm = new RepPrewarmer();
    warm.prepareNext('local', docker, prepared);
    const [dead = ''] = await untilContainers(1);
    while (!(await docker.getContainer(dead).inspect()).State.Running)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const labels = (await docker.getContainer(dead).inspect()).Config.Labels;
    expect(labels[dockerLabels.madeAhead]).toBe('true');
    await docker.getContainer(dead).kill();
    const rep = await startRep(prepared, { docker, prewarm: { warm, host: 'local' } });
    expect(rep.containerId).not.toBe(dead);
    expect(await itemContainerIds()).not.toContain(dead);
    expect(warm.counts().taken).toBe(0);
    await rep.dispose();
    await expectDrained(warm);
  }, 60_000);

  it('keeps no more waiting than its limit', async (context) => {
    const prepared = need(context);
    const warm = new RepPrewarmer({ limit: () => 1 });
    warm.prepareNext('local', docker, prepared);
    warm.prepareNext('local', docker, prepared);
    warm.prepareNext('local', docker, prepared);
    expect(warm.counts().waiting).toBe(1);
    await untilContainers(1);
    await expectDrained(warm);
  }, 60_000);

  it('leaves an orphan that cleanup removes when the engine is killed with SIGKILL', async (context) => {
    const prepared = need(context);
    const childItem = `${item}-killed`;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(__dirname, '..', 'helpers', 'prewarm-process.ts'),
        JSON.stringify(prepared),
        childItem,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the child exited early (${String(code)})`)));
    });
    const [left = ''] = await itemContainerIds(childItem);
    expect(left).not.toBe('');
    child.kill('SIGKILL');
    await exited;
    expect(await itemContainerIds(childItem)).toEqual([left]);
    expect(await removeOrphans({ docker })).toContain(left);
    expect(await itemContainerIds(childItem)).toEqual([]);
  }, 120_000);
});
