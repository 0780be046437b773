/**
 * `cuelab run --resume` removes the containers a stopped engine left before it looks at the
 * study, so resuming a completed study (which has nothing to run) still cleans up after the
 * crash the user is recovering from. Real Docker, a real workspace and the real CLI.
 */
import { spawnSync } from 'node:child_process';
import Docker from 'dockerode';
import { afterEach, describe, expect, it, vi, type TestContext } from 'vitest';
import { runCli } from '../../src/main/cli/main';
import { createEngine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { findBaseImage } from '../../src/main/engine/environments/docker/bootstrap';
import { containerLabels, dockerLabels } from '../../src/main/engine/environments/docker/client';
import { KEY, runStudy } from '../helpers/bundle-study';
import { dockerForTest } from '../helpers/docker';
import { makeTempDir } from '../helpers/temp-dir';

const docker = new Docker();
const dirs: ReturnType<typeof makeTempDir>[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  while (dirs.length) dirs.pop()?.remove();
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('cuelab run --resume of a completed study', () => {
  it('still removes the containers a stopped engine left', async (context: TestContext) => {
    if (!(await dockerForTest()))
      context.skip('Docker is not running (CUELAB_REQUIRE_DOCKER=1 fails)');
    const base = await findBaseImage(docker);
    if (!base) throw new Error('the CueLab base image is not built (cuelab env bootstrap)');
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    const dir = makeTempDir();
    dirs.push(dir);
    const engine = createEngine({ path: dir.path, source: 'flag' });
    const studyId = await runStudy(engineStore(engine));
    engine.close();
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    const orphan = await docker.createContainer({
      Image: base.Id,
      Cmd: ['true'],
      Labels: {
        ...containerLabels(`resume-sweep-${process.pid}`, 'rep'),
        [dockerLabels.enginePid]: String(dead),
      },
    });
    try {
      const resumed = await cli(['run', '--resume', studyId, '--workspace', dir.path]);
      expect(resumed.err).toMatch(/nothing to resume/);
      expect(resumed.code).not.toBe(0);
      expect(resumed.out).toMatch(/Removed \d+ containers left by a stopped engine/);
      await expect(orphan.inspect()).rejects.toMatchObject({ statusCode: 404 });
    } finally {
      await orphan.remove({ force: true }).catch(() => undefined);
    }
  }, 120_000);
});
