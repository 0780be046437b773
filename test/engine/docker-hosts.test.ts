// The Docker host pool against two real engines: the machine's own and a second dockerd started
// by this test (tcp on 127.0.0.1, its own data root), reached through the remote-host code path.
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { baseImageTag } from '../../src/main/engine/environments/docker/bootstrap';
import { DockerHostPool } from '../../src/main/engine/environments/hosts/pool';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { localHostConfig } from '../../src/main/engine/store/docker-hosts';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import {
  startSecondDocker,
  startSecondDockerBesideBase,
  type SecondDocker,
} from '../helpers/second-docker';

const spec = environmentSpecSchema.parse({
  shell: true,
  files: { 'answer.txt': 'forty-two\n' },
  setup: ['echo prepared > setup.txt'],
});
const item = { id: `hosts-${process.pid}` };
let second: SecondDocker | null = null;
let ready = false;

beforeAll(async () => {
  second = await startSecondDockerBesideBase();
  ready = second !== null;
}, 180_000);

afterAll(async () => {
  await second?.dispose();
}, 60_000);

function need(context: TestContext): SecondDocker {
  if (!ready || !second) context.skip('needs Docker, the base image and root for a second dockerd');
  return second;
}

describe('a pool of two Docker engines', () => {
  it('ships the base image, spreads reps over both hosts and runs their commands', async (context) => {
    const engine = need(context);
    const lines: string[] = [];
    const pool = new DockerHostPool(
      [localHostConfig(1), { id: 'second', url: engine.url, maxContainers: 1, enabled: true }],
      { onProgress: (line) => lines.push(line) },
    );
    const signal = new AbortController().signal;
    const [first, other] = await Promise.all([
      pool.provision(spec, item, signal),
      pool.provision(spec, item, signal),
    ]);
    try {
      expect(new Set([first.hostId, other.hostId])).toEqual(new Set(['local', 'second']));
      for (const rep of [first, other]) {
        const result = await rep.environment.exec('cat answer.txt setup.txt', defaultToolLimits);
        expect(result).toMatchObject({ exitCode: 0, stdout: 'forty-two\nprepared\n' });
      }
      expect(
        lines.some((line) => line.startsWith(`copying ${baseImageTag()} from local to second`)),
      ).toBe(true);
      const status = await pool.status();
      const remote = status.find((host) => host.id === 'second');
      expect(remote).toMatchObject({ state: 'up', inFlight: 1, baseImagePresent: true });
      expect(remote?.containersRunning).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([first.dispose(), other.dispose()]);
      pool.close();
    }
    const after = await new DockerHostPool([
      { id: 'second', url: engine.url, maxContainers: 1, enabled: true },
    ]).status();
    expect(after[0]).toMatchObject({ state: 'up', containersRunning: 0 });
  }, 180_000);

  it('marks a killed host down, fails its in-flight rep, places the next reps elsewhere, and takes it back when it answers', async (context) => {
    const engine = need(context);
    const lines: string[] = [];
    const pool = new DockerHostPool(
      [localHostConfig(4), { id: 'second', url: engine.url, maxContainers: 4, enabled: true }],
      { onProgress: (line) => lines.push(line), probeIntervalMs: 200 },
    ).start();
    const signal = new AbortController().signal;
    // Both free: the first rep goes to the first least-loaded host, the second to the other.
    const reps = await Promise.all([
      pool.provision(spec, item, signal),
      pool.provision(spec, item, signal),
    ]);
    const onSecond = reps.find((rep) => rep.hostId === 'second');
    expect(onSecond).toBeDefined();
    await engine.kill();
    await expect(onSecond!.environment.exec('cat answer.txt', defaultToolLimits)).rejects.toThrow();
    await Promise.all(reps.map((rep) => rep.dispose()));
    const next = await Promise.all([
      pool.provision(spec, item, signal),
      pool.provision(spec, item, signal),
    ]);
    try {
      expect(next.map((rep) => rep.hostId)).toEqual(['local', 'local']);
      const status = await pool.status();
      expect(status.find((host) => host.id === 'second')).toMatchObject({
        state: 'down',
        inFlight: 0,
      });
      expect(status.find((host) => host.id === 'second')?.problem).toBeTruthy();
      expect(lines.some((line) => line.includes('Docker host second is down'))).toBe(true);
      // Probed again: once the engine answers, the host is up and gets reps again.
      await engine.restart();
      await expect
        .poll(() => lines.some((line) => line.includes('second is back up')), {
          timeout: 15_000,
        })
        .toBe(true);
      const back = await pool.provision(spec, item, signal);
      next.push(back);
      expect(back.hostId).toBe('second');
      expect(await back.environment.exec('cat answer.txt', defaultToolLimits)).toMatchObject({
        exitCode: 0,
      });
    } finally {
      await Promise.all(next.map((rep) => rep.dispose()));
      pool.close();
    }
  }, 180_000);
});

describe('a remote engine behind TLS (--tlsverify)', () => {
  it('answers with the client certificates and refuses a client without them', async (context) => {
    if (!ready) context.skip('needs Docker, the base image and root for a second dockerd');
    const secure = await startSecondDocker({ tls: true });
    if (!secure?.tls) throw new Error('the TLS engine did not start');
    try {
      const withCerts = await new DockerHostPool([
        { id: 'secure', url: secure.url, maxContainers: 1, enabled: true, tls: secure.tls },
      ]).status();
      expect(withCerts[0]).toMatchObject({ state: 'up', baseImagePresent: false });
      const withoutCerts = await new DockerHostPool([
        { id: 'plain', url: secure.url, maxContainers: 1, enabled: true },
      ]).status();
      expect(withoutCerts[0]?.state).toBe('down');
    } finally {
      await secure.dispose();
    }
  }, 120_000);
});
