/**
 * Settings' Docker status under load: a daemon that takes the connection but does not answer
 * in time (busy with a study's containers) reads "busy" with what it said last, never
 * "Unavailable"; a socket that refuses is still unavailable with its fix. Real Docker for the
 * good answer, a real socket that never answers for the busy one.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { createEnvironmentService } from '../../src/main/engine/api/environment-service';
import { EventHub } from '../../src/main/engine/events';
import { dockerForTest } from '../helpers/docker';
import { makeTempDir } from '../helpers/temp-dir';

describe('Docker status in Settings while the daemon is busy', () => {
  const dir = makeTempDir();
  const silentPath = join(dir.path, 'silent.sock');
  const held: Socket[] = [];
  let silent: Server | undefined;
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => (silent ? silent.close(resolve) : resolve(undefined)));
    dir.remove();
  });

  it('says busy, with the last version and images, when a ping times out after a good answer', async (context) => {
    const status = await dockerForTest();
    if (!status) {
      context.skip('Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)');
      return;
    }
    silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent?.listen(silentPath, resolve));
    let docker = new Docker();
    const service = createEnvironmentService(new EventHub(), {
      docker: () => docker,
      probeTimeoutMs: 1000,
    });

    const good = await service.status();
    expect(good).toMatchObject({ dockerAvailable: true, dockerVersion: status.version });
    expect(good.dockerSlow).toBeUndefined();

    docker = new Docker({ socketPath: silentPath });
    const busy = await service.status();
    expect(busy).toMatchObject({
      dockerAvailable: true,
      dockerSlow: true,
      dockerVersion: status.version,
      baseImage: good.baseImage,
      postgresImage: good.postgresImage,
    });
    expect(busy.problem).toMatch(/^Docker is busy: no answer within 1000 ms\. It last answered at/);
    expect(busy.fix).toBeUndefined();

    docker = new Docker({ socketPath: join(dir.path, 'absent.sock') });
    const gone = await service.status();
    expect(gone.dockerAvailable).toBe(false);
    expect(gone.fix).toContain('docker');
    expect(gone.dockerSlow).toBeUndefined();
    expect(gone.problem).toContain('no Docker socket');
  });

  it('says busy but not available when the daemon never answered this engine', async () => {
    const path = join(dir.path, 'silent-first.sock');
    const server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const service = createEnvironmentService(new EventHub(), {
        docker: () => new Docker({ socketPath: path }),
        probeTimeoutMs: 500,
      });
      const busy = await service.status();
      expect(busy).toMatchObject({ dockerAvailable: false, dockerSlow: true });
      expect(busy.problem).toContain('It has not answered this engine yet.');
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
