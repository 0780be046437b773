import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { envCommand } from '../../src/main/cli/env';
import {
  DockerUnavailableError,
  requireDocker,
} from '../../src/main/engine/environments/docker/client';
import {
  buildImageFromDockerfile,
  findImage,
  importRootfsImage,
} from '../../src/main/engine/environments/docker/images';
import { prepareItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { dockerFix } from '../../src/main/engine/environments/docker-status';
import { provisionEnvironment } from '../../src/main/engine/environments/provision';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage, busyboxRootfs } from '../helpers/docker-images';

const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const docker = new Docker();
const missingDocker = new Docker({ socketPath: '/nonexistent/docker.sock' });
let available = false;
let busybox = '';
const createdImages: string[] = [];

function needDocker(context: TestContext): void {
  if (!available) context.skip(skipReason);
}

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  if (available) busybox = await busyboxImage(docker);
});

afterAll(async () => {
  for (const image of createdImages.reverse()) {
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
  }
});

describe('Docker images without a registry', () => {
  it('imports a root filesystem tarball as an image in about a second', async (context) => {
    needDocker(context);
    const tag = `cuelab-test/imported:${run}`;
    const rootfs = await busyboxRootfs();
    const started = Date.now();
    const id = await importRootfsImage(docker, {
      source: { stream: Readable.from(rootfs) },
      tags: [tag],
    });
    createdImages.push(tag);
    expect(Date.now() - started).toBeLessThan(5000);
    const image = await findImage(docker, tag);
    expect(image?.Id).toBe(id);
    expect(image?.Config.Env).toContain(
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    );
  });

  it('builds from a Dockerfile with a context made in memory, and reports a failing build', async (context) => {
    needDocker(context);
    const tag = `cuelab-test/built:${run}`;
    await buildImageFromDockerfile(docker, {
      dockerfile: `FROM ${busybox}\nCOPY greeting.txt /greeting.txt\nRUN echo built > /built.txt`,
      context: { 'greeting.txt': 'hello from the context\n' },
      tag,
    });
    createdImages.push(tag);
    expect(await findImage(docker, tag)).toBeDefined();
    await expect(
      buildImageFromDockerfile(docker, {
        dockerfile: `FROM ${busybox}\nRUN exit 3`,
        tag: `${tag}-broken`,
      }),
    ).rejects.toThrow(/Docker failed building .*returned a non-zero code: 3/);
  });

  it('starts an item from its own Dockerfile', async (context) => {
    needDocker(context);
    const spec = environmentSpecSchema.parse({
      dockerfile: `FROM ${busybox}\nRUN mkdir -p /opt/tool && echo "tool v1" > /opt/tool/VERSION`,
      shell: true,
      files: { 'run.txt': run },
    });
    const prepared = await prepareItem(spec, `docker-images-${run}`);
    createdImages.push(prepared.image);
    await withRep(prepared, async ({ environment }) => {
      const result = await environment.exec('cat /opt/tool/VERSION run.txt', defaultToolLimits);
      expect(result.stdout).toBe(`tool v1\n${run}`);
    });
  });

  it('reports the state of Docker and the base image with `cuelab env status`', async (context) => {
    needDocker(context);
    const lines: string[] = [];
    const code = await envCommand.run(['status'], {
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
    });
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^Docker: available \(engine \d+\.\d+/);
    expect(lines[1]).toMatch(
      /^Base image: cuelab\/base:[0-9a-f]{16} (present \(\d+ MB\)|absent\. Build it with: cuelab env bootstrap)$/,
    );
    expect(lines[2]).toMatch(/^Containers: \d+ CueLab container\(s\), \d+ orphan\(s\)$/);
    await expect(
      envCommand.run(['polish'], { out: () => undefined, err: () => undefined }),
    ).rejects.toThrow(/unknown action "polish"/);
  });
});

describe('Docker missing or stopped', () => {
  it('fails with the problem and the exact fix', async () => {
    const failure = requireDocker(missingDocker);
    await expect(failure).rejects.toBeInstanceOf(DockerUnavailableError);
    await expect(failure).rejects.toThrow(/no Docker socket \(is Docker installed\?\)/);
    await expect(failure).rejects.toThrow(dockerFix());
  });

  it('fails a shell item with the fix, and still serves a files-only item from the snapshot', async () => {
    const shell = environmentSpecSchema.parse({ shell: true, files: { 'a.txt': 'a' } });
    await expect(
      provisionEnvironment(shell, { id: 'needs-shell' }, { docker: missingDocker }),
    ).rejects.toThrow(
      /This item needs Docker .*no Docker socket[\s\S]*apt-get install -y docker.io|Docker Desktop/,
    );
    const filesOnly = environmentSpecSchema.parse({ files: { 'a.txt': 'a' } });
    await expect(
      provisionEnvironment(
        filesOnly,
        { id: 'files-only' },
        { docker: missingDocker, backend: 'docker' },
      ),
    ).rejects.toBeInstanceOf(DockerUnavailableError);
    const snapshot = await provisionEnvironment(
      filesOnly,
      { id: 'files-only' },
      { docker: missingDocker },
    );
    try {
      expect(snapshot.backend).toBe('snapshot');
      expect(await snapshot.environment.readFile('a.txt', defaultToolLimits)).toEqual({
        content: 'a',
        truncated: false,
      });
    } finally {
      await snapshot.dispose();
    }
  });
});
