// An ssh:// Docker host, reached as a real remote one is: key login to an sshd on 127.0.0.1,
// `docker system dial-stdio` on the far side, into a second dockerd started by this test. The
// host key is checked against known_hosts, as ssh itself does.
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { baseImageTag } from '../../src/main/engine/environments/docker/bootstrap';
import { DockerHostPool } from '../../src/main/engine/environments/hosts/pool';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { localHostConfig } from '../../src/main/engine/store/docker-hosts';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { startSecondDockerBesideBase, type SecondDocker } from '../helpers/second-docker';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const spec = environmentSpecSchema.parse({
  shell: true,
  files: { 'answer.txt': 'over ssh\n' },
});
const item = { id: `ssh-host-${process.pid}` };
let second: SecondDocker | null = null;
let sshd: TestSshd | null = null;
const savedKnownHosts = process.env.CUELAB_SSH_KNOWN_HOSTS;

beforeAll(async () => {
  second = await startSecondDockerBesideBase();
  if (second) sshd = await startSshd(`unix://${second.root}/docker.sock`);
}, 180_000);

afterAll(async () => {
  if (savedKnownHosts === undefined) delete process.env.CUELAB_SSH_KNOWN_HOSTS;
  else process.env.CUELAB_SSH_KNOWN_HOSTS = savedKnownHosts;
  await sshd?.dispose();
  await second?.dispose();
}, 60_000);

function need(context: TestContext): TestSshd {
  if (!sshd) context.skip('needs Docker, the base image, root and sshd');
  return sshd;
}

describe('a Docker host over ssh', () => {
  it('ships the base image over ssh, runs a rep there and reports the host', async (context) => {
    const server = need(context);
    process.env.CUELAB_SSH_KNOWN_HOSTS = server.knownHostsPath;
    const lines: string[] = [];
    const host = {
      id: 'over-ssh',
      url: server.url,
      maxContainers: 1,
      enabled: true,
      sshKeyPath: server.keyPath,
    };
    // The workstation's own engine is in the pool too: the base image is copied from it.
    const pool = new DockerHostPool([localHostConfig(1), host], {
      onProgress: (line) => lines.push(line),
    });
    const signal = new AbortController().signal;
    const reps = await Promise.all([
      pool.provision(spec, item, signal),
      pool.provision(spec, item, signal),
    ]);
    try {
      const rep = reps.find((one) => one.hostId === 'over-ssh');
      expect(rep).toBeDefined();
      const result = await rep!.environment.exec('cat answer.txt', defaultToolLimits);
      expect(result).toMatchObject({ exitCode: 0, stdout: 'over ssh\n' });
      const status = (await pool.status()).find((one) => one.id === 'over-ssh');
      expect(status).toMatchObject({ state: 'up', inFlight: 1, baseImagePresent: true });
      expect(status?.dockerVersion).toBeTruthy();
      // The container really runs on the second engine, not the machine's own.
      const there = await second!.docker.listContainers();
      expect(there.length).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all(reps.map((one) => one.dispose()));
      pool.close();
    }
    expect(
      lines.some((line) => line.startsWith(`copying ${baseImageTag()} from local to over-ssh`)),
    ).toBe(true);
  }, 240_000);

  it('refuses a host whose key is not in known_hosts and says how to add it', async (context) => {
    const server = need(context);
    const empty = join(second!.root, 'empty_known_hosts');
    writeFileSync(empty, '');
    process.env.CUELAB_SSH_KNOWN_HOSTS = empty;
    const [status] = await new DockerHostPool([
      {
        id: 'stranger',
        url: server.url,
        maxContainers: 1,
        enabled: true,
        sshKeyPath: server.keyPath,
      },
    ]).status();
    expect(status?.state).toBe('down');
    expect(status?.problem).toContain(`is not in ${empty}`);
    expect(status?.problem).toContain(`ssh-keyscan -p ${server.port} 127.0.0.1`);
    // A different key listed for the same name is a changed key, not an unknown one.
    writeFileSync(
      empty,
      `[127.0.0.1]:${server.port} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOx0c4IYMOz9jyt3e6bXhWcNDHOQ0Yh/Z9JnYIPhGzCa\n`,
    );
    const [changed] = await new DockerHostPool([
      {
        id: 'changed',
        url: server.url,
        maxContainers: 1,
        enabled: true,
        sshKeyPath: server.keyPath,
      },
    ]).status();
    expect(changed?.state).toBe('down');
    expect(changed?.problem).toContain('does not match');
  }, 60_000);

  it('marks the ssh host down when its engine dies under a rep, and fails that rep', async (context) => {
    const server = need(context);
    process.env.CUELAB_SSH_KNOWN_HOSTS = server.knownHostsPath;
    const pool = new DockerHostPool([
      localHostConfig(1),
      {
        id: 'over-ssh',
        url: server.url,
        maxContainers: 1,
        enabled: true,
        sshKeyPath: server.keyPath,
      },
    ]);
    const signal = new AbortController().signal;
    const reps = await Promise.all([
      pool.provision(spec, item, signal),
      pool.provision(spec, item, signal),
    ]);
    try {
      const remote = reps.find((one) => one.hostId === 'over-ssh');
      expect(remote).toBeDefined();
      await second!.kill();
      await expect(remote!.environment.exec('cat answer.txt', defaultToolLimits)).rejects.toThrow();
      const status = (await pool.status()).find((one) => one.id === 'over-ssh');
      expect(status?.state).toBe('down');
      // Usually dial-stdio's own complaint has arrived; else the bare "socket hang up".
      expect(status?.problem).toMatch(/dial-stdio|daemon|socket hang up/i);
    } finally {
      await Promise.all(reps.map((one) => one.dispose().catch(() => undefined)));
      pool.close();
    }
  }, 180_000);
});
