import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { dockerFix, probeDocker } from '../../src/main/engine/environments/docker-status';
import { dockerForTest } from '../helpers/docker';

describe('Docker status', () => {
  it('reports a reachable Docker engine with its version', async (context) => {
    const status = await dockerForTest();
    if (!status) {
      context.skip('Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)');
      return;
    }
    expect(status.available).toBe(true);
    expect(status.version).toMatch(/^\d+\.\d+/);
  });

  it('names the problem and the exact fix when the socket is missing', async () => {
    const docker = new Docker({ socketPath: '/nonexistent/docker.sock' });
    const status = await probeDocker(2000, docker);
    expect(status).toEqual({
      available: false,
      problem: 'Docker is not reachable: no Docker socket (is Docker installed?).',
      fix: dockerFix(),
    });
    expect(dockerFix('linux')).toContain('apt-get install -y docker.io');
    expect(dockerFix('darwin')).toContain('Docker Desktop');
  });
});
