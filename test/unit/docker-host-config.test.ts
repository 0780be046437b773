import { Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  dockerOptionsFor,
  isHostUnreachable,
} from '../../src/main/engine/environments/hosts/connect';
import { dockerHostConfigSchema } from '../../src/shared/docker-hosts';

const host = (url: string, extra: Record<string, unknown> = {}) =>
  dockerHostConfigSchema.parse({ id: 'h1', url, maxContainers: 4, ...extra });

describe('Docker host configuration', () => {
  it('accepts local, unix, tcp and ssh hosts and maps them to dockerode options', () => {
    expect(dockerOptionsFor(host('local'))).toEqual({});
    expect(dockerOptionsFor(host('unix:///run/other.sock'))).toEqual({
      socketPath: '/run/other.sock',
    });
    expect(dockerOptionsFor(host('tcp://10.1.2.3:2375'))).toEqual({
      protocol: 'http',
      host: '10.1.2.3',
      port: 2375,
    });
    // ssh: plain HTTP over our own agent, whose sockets are ssh channels (hosts/ssh-agent.ts).
    const ssh = dockerOptionsFor(host('ssh://lab@gpu-box:2222', { sshKeyPath: '/dev/null' }));
    expect(ssh).toMatchObject({ protocol: 'http', host: 'gpu-box', port: 2222 });
    expect(ssh.agent).toBeInstanceOf(Agent);
    ssh.agent?.destroy();
  });

  it('reads TLS certificates and names the host and file it cannot read', () => {
    const tls = { caPath: '/nonexistent/ca.pem', certPath: '/dev/null', keyPath: '/dev/null' };
    expect(() => dockerOptionsFor(host('tcp://box:2376', { tls }))).toThrow(
      /Docker host "h1": cannot read \/nonexistent\/ca\.pem/,
    );
  });

  it('rejects URLs, ids and limits that are not hosts', () => {
    for (const url of [
      'http://box:2375',
      'tcp://box',
      'ssh://box',
      'tcp://box:2375/path',
      'unix://relative',
    ]) {
      expect(
        dockerHostConfigSchema.safeParse({ id: 'h', url, maxContainers: 1 }).success,
        url,
      ).toBe(false);
    }
    expect(
      dockerHostConfigSchema.safeParse({ id: 'Bad Id', url: 'local', maxContainers: 1 }).success,
    ).toBe(false);
    expect(
      dockerHostConfigSchema.safeParse({ id: 'h', url: 'local', maxContainers: 0 }).success,
    ).toBe(false);
    expect(
      dockerHostConfigSchema.safeParse({ id: 'h', url: 'local', maxContainers: 1, extra: 1 })
        .success,
    ).toBe(false);
  });

  it('tells an unreachable host from a refused call', () => {
    expect(isHostUnreachable(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(
      true,
    );
    expect(isHostUnreachable(new Error('socket hang up'))).toBe(true);
    expect(isHostUnreachable(Object.assign(new Error('no such image'), { statusCode: 404 }))).toBe(
      false,
    );
  });
});
