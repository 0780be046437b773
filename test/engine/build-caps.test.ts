/**
 * A suite's Dockerfile builds on this machine's Docker engine as root: its RUN steps get the
 * judge container's caps (no network, memory, CPU), every image it reads passes the rule
 * `image:` passes, and its build context travels bounded, in the tag's hash.
 */
import { createHash, randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { contentHash } from '../../src/main/engine/environments/docker/archive';
import { dockerfileImages } from '../../src/main/engine/environments/docker/build-policy';
import { prepareItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';
import { baseImageForTest, busyboxImage } from '../helpers/docker-images';

const docker = new Docker();
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const images = new Set<string>();
let available = false;
let busybox = '';

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  if (available) busybox = await busyboxImage(docker);
}, 300_000);
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

const item = (fields: Record<string, unknown>) =>
  environmentSpecSchema.parse({ shell: true, files: { 'run.txt': run }, ...fields });

/** The tag a suite build of `dockerfile` gets (no network), so the test removes what it built. */
function buildTag(dockerfile: string, context: Record<string, string> = {}): string {
  return `cuelab/build:${contentHash({ dockerfile, context, network: 'none' })}`;
}

async function builtImages(): Promise<number> {
  const listed = await docker.listImages({
    all: true,
    filters: { label: ['cuelab.kind=build'] },
  });
  return listed.length;
}

describe('a suite build runs under the judge container caps', () => {
  it('has no network in RUN steps, and its memory and CPU capped', async (context) => {
    needDocker(context);
    const dockerfile =
      `FROM ${busybox}\n` +
      'RUN cat /proc/net/dev > /net.txt; cat /sys/fs/cgroup/memory/memory.limit_in_bytes ' +
      '/sys/fs/cgroup/cpu/cpu.cfs_quota_us > /limits.txt 2>/dev/null || ' +
      'cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/cpu.max > /limits.txt\n' +
      `RUN echo ${run} > /marker.txt`;
    images.add(buildTag(dockerfile));
    const prepared = await prepareItem(
      item({ dockerfile, resources: { memoryMb: 384, cpus: 0.5 } }),
      `build-caps-${run}`,
    );
    images.add(prepared.image);
    await withRep(prepared, async ({ environment }) => {
      const net = await environment.exec('cat /net.txt', defaultToolLimits);
      const interfaces = net.stdout.split('\n').filter((line) => line.includes(':'));
      expect(interfaces.map((line) => line.split(':')[0]?.trim())).toEqual(['lo']);
      const limits = await environment.exec('cat /limits.txt', defaultToolLimits);
      // cgroup v1 (quota in µs per 100 ms period) or v2 (quota and period on one line).
      expect(limits.stdout).toMatch(new RegExp(`^${384 * 1024 * 1024}\\n50000( 100000)?\\n$`));
    });
  }, 120_000);

  it('fails a RUN step that reaches for the network, saying builds have none', async (context) => {
    needDocker(context);
    await expect(
      prepareItem(
        item({
          dockerfile: `FROM ${busybox}\nRUN wget -T 5 -q -O /dev/null http://deb.debian.org/ # ${run}`,
        }),
        `build-net-${run}`,
      ),
    ).rejects.toThrow(/returned a non-zero code[\s\S]*Suite builds have no network/);
  }, 120_000);
});

describe('what a suite build may start from', () => {
  it("refuses another item's image under any name, by FROM, COPY --from or image:, before building", async (context) => {
    needDocker(context);
    const other = await prepareItem(item({ image: busybox }), `build-other-${run}`);
    images.add(other.image);
    const alias = `innocent/looking:${run}`;
    await docker.getImage(other.image).tag({ repo: 'innocent/looking', tag: run });
    images.add(alias);
    const before = await builtImages();
    for (const dockerfile of [
      `FROM ${other.image}\nRUN true`,
      `FROM ${alias}`,
      `FROM ${busybox} AS first\nFROM first\nCOPY --from=${alias} /etc/passwd /stolen`,
    ]) {
      await expect(
        prepareItem(item({ dockerfile }), `build-from-${run}`),
        dockerfile,
      ).rejects.toThrow(
        /names .*, an image CueLab made from another item \(cuelab\.kind=item\).*Fix: start from cuelab\/base/,
      );
    }
    await expect(prepareItem(item({ image: alias }), `build-image-${run}`)).rejects.toThrow(
      /environment\.image innocent\/looking.* an image CueLab made from another item/,
    );
    expect(await builtImages()).toBe(before);
  }, 120_000);

  it('reads every image a Dockerfile names, as the builder parses it', () => {
    expect(
      dockerfileImages(
        '# syntax=docker/dockerfile:1\n' +
          'from --platform=linux/amd64 a/one:1 AS build\n' +
          'RUN make \\\n# a comment inside\n  && true\n' +
          'FROM \\\n  b/two\n' +
          'COPY --from=build /x /x\nCOPY --from=c/three:3 /y /y\nCOPY --from=0 /z /z\n' +
          'FROM scratch',
      ).map((image) => [image.instruction, image.reference, image.line]),
    ).toEqual([
      ['FROM', 'a/one:1', 2],
      ['FROM', 'b/two', 6],
      ['COPY --from', 'c/three:3', 9],
    ]);
    expect(() => dockerfileImages('ARG BASE=cuelab/item:x\nFROM ${BASE}')).toThrow(
      /line 2: FROM \$\{BASE\}: name the image, no variables/,
    );
    expect(() => dockerfileImages('# escape=`\nFROM a')).toThrow(/escape directive/);
    expect(() => dockerfileImages('FROM a\nADD https://example.com/x.sh /x.sh')).toThrow(
      /line 2: ADD from a URL/,
    );
  });
});

describe('the build context', () => {
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, index) => index));

  it('sends its files with the Dockerfile, so COPY finds them, and the tag hashes them', async (context) => {
    needDocker(context);
    await baseImageForTest(docker);
    const dockerfile =
      'FROM cuelab/base:latest\nCOPY setup.sh /opt/setup.sh\nCOPY data/bytes.bin /opt/bytes.bin\n' +
      'RUN sh /opt/setup.sh';
    const spec = (script: string) => {
      const buildContext = {
        'setup.sh': Buffer.from(script).toString('base64'),
        'data/bytes.bin': bytes.toString('base64'),
      };
      images.add(buildTag(dockerfile, buildContext));
      return item({ dockerfile, buildContext });
    };
    const first = await prepareItem(spec(`echo first ${run} > /opt/said.txt\n`), `ctx-a-${run}`);
    images.add(first.image);
    const second = await prepareItem(spec(`echo second ${run} > /opt/said.txt\n`), `ctx-b-${run}`);
    images.add(second.image);
    await withRep(first, async ({ environment }) => {
      const said = await environment.exec(
        'cat /opt/said.txt; sha256sum /opt/bytes.bin',
        defaultToolLimits,
      );
      expect(said.stdout).toBe(
        `first ${run}\n${createHash('sha256').update(bytes).digest('hex')}  /opt/bytes.bin\n`,
      );
    });
    await withRep(second, async ({ environment }) => {
      expect((await environment.exec('cat /opt/said.txt', defaultToolLimits)).stdout).toBe(
        `second ${run}\n`,
      );
    });
  }, 300_000);

  it.each([
    [{ buildContext: { 'a.txt': 'YQ==' } }, /buildContext: is only used with dockerfile/],
    [{ dockerfile: 'FROM a', buildContext: { 'a.txt': 'not base64!' } }, /a\.txt: is not base64/],
    [
      { dockerfile: 'FROM a', buildContext: { '../x': 'YQ==' } },
      /buildContext\.\.\.\/x: Invalid key/,
    ],
    [{ dockerfile: 'FROM a', buildContext: { Dockerfile: 'YQ==' } }, /give it as dockerfile/],
    [
      { dockerfile: 'FROM a', buildContext: { big: 'A'.repeat((16777218 / 3) * 4) } },
      /holds 16777218 bytes; at most 16777216 \(16 MiB\)/,
    ],
    [
      {
        dockerfile: 'FROM a',
        buildContext: Object.fromEntries(Array.from({ length: 1001 }, (_, n) => [`f${n}`, ''])),
      },
      /has 1001 files; at most 1000/,
    ],
  ])('refuses a bad one in the suite: %#', (fields, message) => {
    const parsed = environmentSpecSchema.safeParse({ files: {}, ...fields });
    expect(parsed.success).toBe(false);
    const text = parsed.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(text?.join('\n')).toMatch(message);
  });
});
