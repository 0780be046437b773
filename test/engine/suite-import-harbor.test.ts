/**
 * Harbor's own files (test/fixtures/import/harbor-golden, see PROVENANCE.md): ATIF trajectories
 * Harbor's agents wrote in its integration tests (OpenHands; Terminus-2 cut off by the task's
 * timeout; Terminus-2 summarizing its context, once handing off to subagents and once going on
 * in a `trajectory.cont-1.json`) on Harbor's example `hello-world` task, whose `task.toml` still
 * uses the deprecated `memory = "2G"`. The task's cpus and memory become the item's container
 * limits, honoured by the real Docker engine up to the user's cap; a Terminal-Bench 1 task's
 * compose limits likewise. A mixed folder with two `hello-world` tasks gives each run its own.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import {
  defaultContainerCap,
  dockerItemSettings,
} from '../../src/main/engine/environments/docker/item-settings';
import { prepareItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { importRuns } from '../../src/main/engine/suites/import';
import { composeResources, sizeInMb } from '../../src/main/engine/suites/import/resources';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';
import { makeTempDir } from '../helpers/temp-dir';

const fixtures = join(__dirname, '..', 'fixtures', 'import');
const golden = importRuns({ path: join(fixtures, 'harbor-golden'), format: 'auto' });
const byId = (id: string) => golden.suite.items.find((item) => item.id === id)!;
const created: string[] = [];
const docker = new Docker();

afterAll(async () => {
  for (const image of created)
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
});

describe("Harbor's own trajectories", () => {
  it('imports every trial with its reward as gold and the message counts of the ATIF steps', () => {
    expect(golden.skipped).toEqual([]);
    expect(golden.suite.items.map((item) => [item.id, item.gold ?? null]).sort()).toEqual([
      ['hello-world__linear1', null],
      ['hello-world__openhands1', 'pass'],
      ['hello-world__summarized1', 'pass'],
      ['hello-world__timeout1', 'fail'],
    ]);
    // OpenHands: 4 system/user steps, then two agent steps (one with its tool result).
    expect(byId('hello-world__openhands1').trajectory.map((m) => m.role)).toEqual([
      'system',
      'user',
      'system',
      'system',
      'assistant',
      'tool',
      'assistant',
    ]);
    // Terminus-2: the prompt, then three keystroke batches, each with its terminal output,
    // whose observation results carry no source_call_id (ATIF allows it): paired by position.
    const timeout = byId('hello-world__timeout1');
    expect(timeout.trajectory).toHaveLength(7);
    expect(timeout.trajectory[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_0_1' });
    expect(timeout.note).toBe('the trial raised AgentTimeoutError');
    expect(timeout.provenance?.agent).toBe('terminus-2 / openai/gpt-4o');
  });

  it('follows continued_trajectory_ref, and shows a hand-off to subagents as text', () => {
    // 5 steps in trajectory.json and 8 in trajectory.cont-1.json: the run to its very end.
    const linear = byId('hello-world__linear1').trajectory;
    expect(linear).toHaveLength(20);
    expect(linear.at(-2)?.content).toContain('confirming task completion');
    expect(
      linear.filter((m) => m.content?.includes('picking up work from a previous')),
    ).toHaveLength(1);
    // The summarization step observes subagent trajectories only (no content): named inline.
    const summarized = byId('hello-world__summarized1').trajectory;
    expect(summarized).toHaveLength(17);
    expect(summarized[7]).toMatchObject({ role: 'system' });
    expect(summarized[7]?.content).toMatch(
      /^Performed context summarization and handoff to continue task\.\n\[subagent trajectory test-session-context-summarization-summarization-1-summary \(trajectory\.summarization-1-summary\.json\)\]/,
    );
  });

  it('skips a trial whose continuation is missing or names a path outside its folder', () => {
    const workspace = makeTempDir();
    try {
      const job = join(workspace.path, 'job');
      cpSync(join(fixtures, 'harbor-golden'), job, { recursive: true });
      const agent = join(job, 'job', 'hello-world__linear1', 'agent');
      rmSync(join(agent, 'trajectory.cont-1.json'));
      const path = join(agent, 'trajectory.json');
      const missing = importRuns({ path: job, format: 'harbor' });
      expect(missing.skipped).toEqual([
        {
          path: 'job/hello-world__linear1/agent/trajectory.json',
          reason: 'continued_trajectory_ref: trajectory.cont-1.json is missing',
        },
      ]);
      const text = readFileSync(path, 'utf8').replace('"trajectory.cont-1.json"', '"../../x.json"');
      writeFileSync(path, text);
      expect(importRuns({ path: job, format: 'harbor' }).skipped[0]?.reason).toBe(
        'continued_trajectory_ref: ../../x.json is not a file beside it',
      );
      expect(missing.suite.items).toHaveLength(3);
    } finally {
      workspace.remove();
    }
  });

  it('carries the task\'s Dockerfile and its [environment] cpus and memory = "2G"', () => {
    for (const item of golden.suite.items) {
      expect(item.task).toBe('Create a file called hello.txt with "Hello, world!" as the content.');
      expect(item.environment).toMatchObject({
        dockerfile: 'FROM ubuntu:24.04\n\nWORKDIR /app',
        workdir: '/app',
        resources: { cpus: 1, memoryMb: 2048 },
      });
    }
  });

  it('beyond the user cap the rep is refused, naming the setting to raise', () => {
    const item = byId('hello-world__openhands1');
    expect(dockerItemSettings(item.environment, item.trajectory).resources).toMatchObject({
      cpus: 1,
      memoryMb: 2048,
    });
    expect(() =>
      dockerItemSettings(item.environment, item.trajectory, {
        ...defaultContainerCap,
        maxMemoryMb: 1024,
      }),
    ).toThrow(/memoryMb 2048 .*CUELAB_CONTAINER_MAX_MEMORY_MB \(now 1024\)/);
  });

  it('the Docker backend gives the rep container the task limits', async (context) => {
    if (!(await dockerForTest()))
      return context.skip('Docker is not running here (CUELAB_REQUIRE_DOCKER=1 fails instead)');
    const item = byId('hello-world__openhands1');
    // ubuntu:24.04 cannot be pulled here: a local stand-in with the task's own WORKDIR.
    const stand = `FROM ${await busyboxImage(docker)}\nWORKDIR /app`;
    const prepared = await prepareItem({ ...item.environment, dockerfile: stand }, 'harbor-res');
    created.push(prepared.image);
    await withRep(prepared, async (rep) => {
      const host = (await docker.getContainer(rep.containerId).inspect()).HostConfig;
      expect(host.Memory).toBe(2048 * 1024 * 1024);
      expect(host.NanoCpus).toBe(1e9);
      const limit = await rep.environment.exec(
        'cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max',
        defaultToolLimits,
      );
      expect(limit.stdout.trim()).toBe(String(2048 * 1024 * 1024));
    });
  }, 300_000);
});

describe('task limits from Terminal-Bench 1 compose files', () => {
  it('reads mem_limit / cpus and deploy.resources.limits of the agent service', () => {
    expect(composeResources('services:\n  client:\n    mem_limit: 4g\n    cpus: "2"\n')).toEqual({
      cpus: 2,
      memoryMb: 4096,
    });
    const deploy = 'services:\n  other: {}\n  client:\n    deploy:\n      resources:\n';
    expect(composeResources(`${deploy}        limits: { cpus: "0.5", memory: 500MB }\n`)).toEqual({
      cpus: 0.5,
      memoryMb: 500,
    });
    expect(composeResources('services: [unclosed')).toEqual({});
    expect(composeResources('services:\n  client:\n    image: x\n')).toEqual({});
    expect([sizeInMb('2G'), sizeInMb('512m'), sizeInMb(1073741824), sizeInMb('lots')]).toEqual([
      2048,
      512,
      1024,
      undefined,
    ]);
  });

  it('puts them on the imported trial environment', () => {
    const workspace = makeTempDir();
    try {
      const tb = join(fixtures, 'terminal-bench');
      cpSync(tb, join(workspace.path, 'tb'), { recursive: true });
      const task = join(workspace.path, 'tb', 'tasks', 'hello-world');
      writeFileSync(join(task, 'docker-compose.yaml'), 'services:\n  client:\n    mem_limit: 3g\n');
      const outcome = importRuns({ path: join(workspace.path, 'tb'), format: 'terminal-bench' });
      const hello = outcome.suite.items.find((item) => item.id.startsWith('hello-world'))!;
      expect(hello.environment.resources).toEqual({ memoryMb: 3072 });
    } finally {
      workspace.remove();
    }
  });
});

describe('a mixed folder with two tasks of one name', () => {
  it('gives each run the task folder nearest it, not the first found', () => {
    const workspace = makeTempDir();
    try {
      for (const name of ['harbor', 'harbor-golden']) {
        mkdirSync(join(workspace.path, 'mixed'), { recursive: true });
        cpSync(join(fixtures, name), join(workspace.path, 'mixed', name), { recursive: true });
      }
      const outcome = importRuns({ path: join(workspace.path, 'mixed'), format: 'harbor' });
      const dockerfiles = new Map(
        outcome.suite.items.map((item) => [item.id, item.environment.dockerfile ?? '']),
      );
      expect(dockerfiles.get('hello-world__AbC123')).toContain('FROM cuelab/base');
      expect(dockerfiles.get('hello-world__openhands1')).toContain('FROM ubuntu:24.04');
    } finally {
      workspace.remove();
    }
  });
});
