import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import {
  containerCapFromEnv,
  defaultContainerCap,
  dockerItemSettings,
} from '../../src/main/engine/environments/docker/item-settings';
import { prepareItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits, type ToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';

// A suite cannot loosen the judge's container beyond the user's cap.
const docker = new Docker();
const limits: ToolLimits = { ...defaultToolLimits, commandTimeoutMs: 10_000 };
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const images = new Set<string>();
let available = false;
let busybox = '';

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  if (available) busybox = await busyboxImage(docker);
});
afterAll(async () => {
  for (const image of images)
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
});

function needDocker(context: TestContext): void {
  if (!available) context.skip('Docker is not running here (set CUELAB_REQUIRE_DOCKER=1)');
}

describe('the container cap', () => {
  const spec = (fields: Record<string, unknown>) =>
    environmentSpecSchema.parse({ shell: true, ...fields });

  it.each([
    [{ user: 'root' }, /user root \(root\) is beyond .*CUELAB_CONTAINER_ALLOW_ROOT=1/],
    [{ user: '0:0' }, /CUELAB_CONTAINER_ALLOW_ROOT/],
    [{ network: true }, /network: true is beyond .*CUELAB_CONTAINER_ALLOW_NETWORK=1/],
    [{ resources: { memoryMb: 65536 } }, /memoryMb 65536 .*MAX_MEMORY_MB \(now 8192\)/],
    [{ resources: { cpus: 32 } }, /cpus 32/],
    [{ resources: { pids: 100000 } }, /pids 100000/],
  ])('refuses %j by default', (fields, message) => {
    expect(() => dockerItemSettings(spec(fields), undefined, defaultContainerCap)).toThrow(message);
  });

  it.each(['00', '000', '00:0', '0:5', 'root'])(
    'counts user %s as root: the uid is compared as a number, with any group',
    (user) => {
      expect(() => dockerItemSettings(spec({ user }), undefined, defaultContainerCap)).toThrow(
        new RegExp(`user ${user} \\(root\\) is beyond .*CUELAB_CONTAINER_ALLOW_ROOT=1`),
      );
    },
  );

  it.each(['1000', '10:0', '1000:1000', 'agent'])('lets user %s (not uid 0) through', (user) => {
    expect(dockerItemSettings(spec({ user }), undefined, defaultContainerCap).user).toBe(user);
  });

  it('refuses a user name the image maps to uid 0, found by asking the container', async (context) => {
    needDocker(context);
    const item = spec({
      image: busybox,
      user: 'toor',
      files: { 'a.txt': run },
      setup: ["echo 'toor:x:0:0::/root:/bin/sh' >> /etc/passwd"],
    });
    await expect(prepareItem(item, `caps-toor-${run}`)).rejects.toThrow(
      /environment\.user toor is uid 0 \(root\) in this image.*CUELAB_CONTAINER_ALLOW_ROOT=1/,
    );
  });

  it('lets the user, not the suite, raise it', () => {
    const cap = containerCapFromEnv({
      CUELAB_CONTAINER_ALLOW_ROOT: '1',
      CUELAB_CONTAINER_ALLOW_NETWORK: '1',
      CUELAB_CONTAINER_MAX_MEMORY_MB: '70000',
    });
    const settings = dockerItemSettings(
      spec({ user: 'root', network: true, resources: { memoryMb: 65536 } }),
      undefined,
      cap,
    );
    expect(settings).toMatchObject({ user: 'root', network: true });
  });

  it('creates judge containers with every capability dropped, capped scratch, no network', async (context) => {
    needDocker(context);
    const prepared = await prepareItem(
      spec({ image: busybox, files: { 'a.txt': run }, setup: ['chmod 600 a.txt'] }),
      `caps-${run}`,
    );
    images.add(prepared.image);
    await withRep(prepared, async (rep) => {
      const info = await docker.getContainer(rep.containerId).inspect();
      expect(info.HostConfig).toMatchObject({
        CapDrop: ['ALL'],
        NetworkMode: 'none',
        ReadonlyRootfs: false,
        Tmpfs: { '/tmp': 'rw,nosuid,nodev,size=256m', '/var/tmp': 'rw,nosuid,nodev,size=256m' },
        SecurityOpt: ['no-new-privileges'],
      });
      expect(info.HostConfig.CapAdd ?? []).toEqual([]);
      const caps = await rep.environment.exec('grep CapEff /proc/self/status; id -u', limits);
      expect(caps.stdout).toMatch(/CapEff:\s+0{16}\n[1-9]\d*\n/);
      const scratch = await rep.environment.exec('df -k /tmp | tail -1', limits);
      expect(scratch.stdout).toMatch(/tmpfs\s+262144\s/);
      expect((await rep.environment.exec('cat a.txt', limits)).stdout).toBe(run);
    });
  });

  it('gives a judge without a shell a read-only root', async (context) => {
    needDocker(context);
    const prepared = await prepareItem(
      environmentSpecSchema.parse({
        image: busybox,
        shell: false,
        files: { 'a.txt': run },
        setup: ['true'],
      }),
      `caps-ro-${run}`,
    );
    images.add(prepared.image);
    await withRep(prepared, async (rep) => {
      const info = await docker.getContainer(rep.containerId).inspect();
      expect(info.HostConfig.ReadonlyRootfs).toBe(true);
      const write = await rep.environment.exec('echo x > b.txt', limits);
      expect(write.exitCode).not.toBe(0);
      expect(`${write.stdout}${write.stderr}`).toMatch(/Read-only file system/);
      expect((await rep.environment.readFile('a.txt', limits)).content).toBe(run);
    });
  });
});
