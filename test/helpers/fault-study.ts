/**
 * A small real study for fault tests: a workspace on disk, a suite of Docker items (busybox,
 * a shell), one Anthropic judge at the fake model server, and a runner in this process. The
 * judge script lists the folder with the shell, then passes the item (or fails it when cued).
 */
import { join } from 'node:path';
import type Docker from 'dockerode';
import { dockerLabels } from '../../src/main/engine/environments/docker/client';
import { listManagedContainers } from '../../src/main/engine/environments/docker/orphans';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { StudyRunner, type RunnerOptions } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { listSuiteItems, saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema, type StudySpecInput } from '../../src/shared/study-spec';
import { suiteFileSchema, type SuiteFile } from '../../src/shared/suite-format';
import { reply, type FakeHandler, type ReceivedRequest } from './fake-model-server';
import { engineStore } from '../../src/main/engine/engine-store';

/** Id of the fault suite. */
export const faultSuiteId = 'fault-suite';

/** A suite of `count` items whose environment is a busybox container with one file. */
export function dockerFaultSuite(image: string | undefined, count: number) {
  return suiteFileSchema.parse({
    id: faultSuiteId,
    name: 'Fault suite',
    description: 'Items for the fault tests.',
    toolBudget: 4,
    items: Array.from({ length: count }, (_, index) => ({
      id: `item-${index + 1}`,
      dataset: 'faults',
      substrate: 'filesystem',
      task: `Write done into notes.txt (item ${index + 1}).`,
      trajectory: [
        { role: 'user', content: `Write done into notes.txt (item ${index + 1}).` },
        { role: 'assistant', content: 'I wrote it. Done.' },
      ],
      environment: {
        ...(image ? { image, shell: true } : {}),
        files: { 'notes.txt': `done ${index + 1}\n` },
      },
      gold: 'pass',
    })),
  });
}

/** Text of the last message of a fake-server request (where tool results arrive). */
export function lastMessageText(request: ReceivedRequest): string {
  const messages = request.body.messages as { content: unknown }[];
  return JSON.stringify(messages.at(-1)?.content ?? '');
}

/**
 * The judge: first a shell call (`cat notes.txt`, or `list_dir` when the item has no shell),
 * then a verdict: pass, unless the cue ("UNMET") is in the prompt.
 */
export function shellJudge(shell = true, command = 'cat notes.txt'): FakeHandler {
  return (request) => {
    if (!lastMessageText(request).includes('tool_result')) {
      return shell
        ? reply.toolCall('shell', { command })
        : reply.toolCall('list_dir', { path: '.' });
    }
    const cued = JSON.stringify(request.body).includes('UNMET');
    return reply.toolCall('submit_verdict', {
      verdict: cued ? 'fail' : 'pass',
      confidence: 0.8,
      rationale: 'Read notes.txt.',
    });
  };
}

/** A workspace with the fault suite and one study over it. */
export interface FaultStudy {
  engine: Engine;
  studyId: string;
  /** A runner over the study (not started). */
  runner(options?: Partial<RunnerOptions>): StudyRunner;
}

/** Creates the workspace at `workspace` and a study; `spec` overrides the defaults. */
export function createFaultStudy(
  workspace: string,
  options: {
    image?: string;
    items: number;
    baseUrl: string;
    spec?: Partial<StudySpecInput>;
    /** A suite of its own (id `faultSuiteId`) instead of the busybox one. */
    suite?: SuiteFile;
    /** More of the user's environment, and more endpoints the user trusts. */
    env?: Record<string, string>;
    trustedEndpoints?: string[];
  },
): FaultStudy {
  const engine = createEngine({ path: workspace, source: 'flag' });
  saveSuite(
    engineStore(engine),
    options.suite ?? dockerFaultSuite(options.image, options.items),
    'imported',
  );
  const spec = studySpecSchema.parse({
    name: 'fault study',
    suite: faultSuiteId,
    judges: [
      { id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: options.baseUrl },
    ],
    reps: 1,
    concurrency: { total: 1, containers: 1 },
    ...options.spec,
  });
  const studyId = createStudy(
    engineStore(engine),
    spec,
    listSuiteItems(engineStore(engine), faultSuiteId),
  );
  return {
    engine,
    studyId,
    runner: (overrides = {}) =>
      new StudyRunner(
        {
          ...workspaceRunnerDeps(engineStore(engine), {
            env: { ANTHROPIC_API_KEY: 'test', ...options.env },
            // The fake server is a custom endpoint the user trusts.
            trust: {
              endpoints: [options.baseUrl, ...(options.trustedEndpoints ?? [])],
              keyEnvNames: [],
            },
          }),
          // Short provider backoff: the tests count calls, not wait for them.
          retry: { baseDelayMs: 20, maxDelayMs: 200 },
        },
        { concurrency: 1, studyIds: [studyId], pollMs: 20, ...overrides },
      ),
  };
}

/** The workspace folder of a test directory. */
export function workspaceIn(dir: string): string {
  return join(dir, 'ws');
}

/** The managed containers that carry `studyId`'s label. */
export async function studyContainers(
  docker: Docker,
  studyId: string,
): Promise<Docker.ContainerInfo[]> {
  return (await listManagedContainers(docker)).filter(
    (container) => container.Labels[dockerLabels.study] === studyId,
  );
}
