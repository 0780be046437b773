import Database from 'better-sqlite3';
import Docker from 'dockerode';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { dockerLabels } from '../../src/main/engine/environments/docker/client';
import { listManagedContainers } from '../../src/main/engine/environments/docker/orphans';
import { dockerForTest } from '../helpers/docker';
import { busyboxImage } from '../helpers/docker-images';
import {
  reply,
  startFakeModelServer,
  type FakeModelServer,
  type FakeReply,
  type ReceivedRequest,
} from '../helpers/fake-model-server';
import { dockerFaultSuite, shellJudge } from '../helpers/fault-study';
import { makeTempDir } from '../helpers/temp-dir';
import { mountSmallDisk, type SmallDisk } from '../helpers/tmpfs';

// The fault matrix: one small real study (2 items, the uncued
// control and the strong cue opposite its majority: 4 reps of 2 provider calls each), run by
// the real `cuelab run` process against the fake model server, under one fault at a time.
// For each: reps expected / stored / duplicated / lost, provider calls made vs needed.
const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const repsExpected = 4;
const callsNeeded = 2 * repsExpected;
const docker = new Docker();

interface Context {
  child: () => ChildProcess | undefined;
  workspace: string;
  disk?: SmallDisk;
}

interface Scenario {
  name: string;
  /** Items with a shell in a real container (else the no-exec snapshot). */
  docker?: boolean;
  /** The command the judge runs (Docker items). */
  command?: string;
  /** The workspace lives on a 6 MB tmpfs. */
  disk?: boolean;
  /** Reps in flight at once (default 1). */
  concurrency?: number;
  env?: Record<string, string>;
  /** What the fake server does with the n-th call of the first run (1-based). */
  fault?: (
    n: number,
    request: ReceivedRequest,
    context: Context,
  ) => FakeReply | undefined | Promise<FakeReply | undefined>;
  /** How the first run ends. */
  firstRun: 'killed' | 'completed' | 'stopped';
  /** Calls made beyond those needed: the in-flight one at a kill, the one a fault failed. */
  repeated: number;
}

const scenarios: Scenario[] = [
  {
    name: 'kill -9 before a claim',
    env: { CUELAB_CRASH_AT: 'before-claim:3' },
    firstRun: 'killed',
    repeated: 0,
  },
  {
    name: 'kill -9 mid provider call',
    fault: (n, _request, context) => {
      if (n === 3) context.child()?.kill('SIGKILL');
      return undefined;
    },
    firstRun: 'killed',
    repeated: 1,
  },
  {
    name: 'kill -9 mid tool call',
    docker: true,
    command: 'sleep 2; cat notes.txt',
    fault: (n, _request, context) => {
      if (n === 3) setTimeout(() => context.child()?.kill('SIGKILL'), 900);
      return undefined;
    },
    firstRun: 'killed',
    repeated: 0,
  },
  {
    name: 'kill -9 after store, before ack',
    env: { CUELAB_CRASH_AT: 'after-store:1' },
    firstRun: 'killed',
    repeated: 0,
  },
  {
    // Two reps whose last replies arrive together are stored in one transaction: killed
    // right after it committed, before either worker was told, both stay stored once.
    name: 'kill -9 after a group commit',
    concurrency: 2,
    // Calls on the runner's own thread: two replies the server sends at once are then read in
    // one turn of its event loop, so their reps land in one group. From the provider thread
    // they come as two messages, which a loaded machine can deliver turns apart.
    env: { CUELAB_CRASH_AT: 'group-committed:1', CUELAB_PROVIDER_THREAD: '0' },
    fault: inPairs(4),
    firstRun: 'killed',
    repeated: 0,
  },
  {
    name: '429 rate limited',
    fault: (n) => (n === 3 ? reply.rateLimited(0) : undefined),
    firstRun: 'completed',
    repeated: 1,
  },
  {
    name: '500 server error',
    fault: (n) => (n === 3 ? reply.error(500, { message: 'boom' }) : undefined),
    firstRun: 'completed',
    repeated: 1,
  },
  {
    name: 'hang (provider timeout)',
    fault: async (n, request) =>
      n === 3 ? { ...(await judgeFor(false)(request)), delayMs: 6000 } : undefined,
    firstRun: 'completed',
    repeated: 1,
  },
  {
    name: 'malformed body',
    fault: (n) => (n === 3 ? reply.garbage() : undefined),
    firstRun: 'completed',
    repeated: 1,
  },
  {
    name: 'container death',
    docker: true,
    fault: async (n, _request, context) => {
      // The response is held until the rep's container is dead.
      if (n === 3) await killWorkspaceContainers(context.workspace);
      return undefined;
    },
    firstRun: 'completed',
    repeated: 0,
  },
  {
    name: 'disk full',
    disk: true,
    fault: (n, _request, context) => {
      if (n === 3) context.disk?.fill();
      return undefined;
    },
    firstRun: 'stopped',
    repeated: 1,
  },
];

/**
 * Holds each of the first `calls` calls until a second one waits too, then answers both in
 * the same turn (a lone call goes after 3 s): two reps started together stay in step, so their
 * last replies arrive together.
 */
function inPairs(calls: number): NonNullable<Scenario['fault']> {
  let waiting: (() => void) | null = null;
  return async (n) => {
    if (n > calls) return undefined;
    await new Promise<void>((resolve) => {
      if (waiting) {
        waiting();
        waiting = null;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        waiting = null;
        resolve();
      }, 3000);
      waiting = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    return undefined;
  };
}

function judgeFor(shell: boolean, command?: string) {
  return shellJudge(shell, command);
}

async function workspaceContainers(workspace: string): Promise<Docker.ContainerInfo[]> {
  return (await listManagedContainers(docker)).filter(
    (container) => container.Labels[dockerLabels.workspace] === workspace,
  );
}

async function killWorkspaceContainers(workspace: string): Promise<void> {
  for (const container of await workspaceContainers(workspace))
    await docker.getContainer(container.Id).kill();
}

function cuelab(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, out })),
  );
  return { child, done };
}

interface Row {
  scenario: string;
  expected: number;
  stored: number;
  duplicated: number;
  lost: number;
  callsMade: number;
  callsNeeded: number;
  repeated: number;
}

const rows: Row[] = [];
let server: FakeModelServer;
let dir: ReturnType<typeof makeTempDir>;
let dockerAvailable = false;
let image = '';

beforeAll(async () => {
  server = await startFakeModelServer();
  dir = makeTempDir();
  dockerAvailable = (await dockerForTest()) !== null;
  if (dockerAvailable) image = await busyboxImage(docker);
});
afterAll(async () => {
  await server.close();
  dir.remove();
  if (rows.length) console.log(`Fault matrix:\n${formatRows(rows)}`);
});

function formatRows(table: Row[]): string {
  const header =
    'scenario                          expected stored dup lost calls made/needed repeated';
  const lines = table.map(
    (row) =>
      `${row.scenario.padEnd(34)}${String(row.expected).padStart(8)}${String(row.stored).padStart(7)}` +
      `${String(row.duplicated).padStart(4)}${String(row.lost).padStart(5)}` +
      `${`${row.callsMade}/${row.callsNeeded}`.padStart(18)}${String(row.repeated).padStart(9)}`,
  );
  return [header, ...lines].join('\n');
}

async function runScenario(scenario: Scenario, context: TestContext): Promise<Row> {
  if (scenario.docker && !dockerAvailable) context.skip('Docker is not available');
  const base = join(dir.path, scenario.name.replace(/[^a-z0-9]+/gi, '-'));
  mkdirSync(base, { recursive: true });
  const disk = scenario.disk ? mountSmallDisk(join(base, 'disk'), 6) : undefined;
  try {
    const workspace = join(disk?.path ?? base, 'ws');
    const env = {
      CUELAB_WORKSPACE: workspace,
      ANTHROPIC_API_KEY: 'test',
      // The fake server is a custom endpoint the user trusts.
      CUELAB_TRUSTED_ENDPOINTS: server.url,
    };
    const suitePath = join(base, 'suite.json');
    writeFileSync(
      suitePath,
      JSON.stringify(dockerFaultSuite(scenario.docker ? image : undefined, 2)),
    );
    const specPath = join(base, 'study.yaml');
    writeFileSync(
      specPath,
      [
        'name: fault matrix',
        'suite: fault-suite',
        'judges:',
        `  - { id: fake, provider: anthropic, model: claude-sonnet-4-6, baseUrl: "${server.url}", timeoutMs: 1500 }`,
        'reps: 1',
        `concurrency: { total: ${scenario.concurrency ?? 1}, containers: ${scenario.concurrency ?? 1} }`,
        '',
      ].join('\n'),
    );
    expect((await cuelab(['suite', 'import', suitePath], env).done).code).toBe(0);

    const judge = judgeFor(scenario.docker === true, scenario.command);
    let running: ChildProcess | undefined = undefined;
    const callsBefore = server.callCount('anthropic');
    let n = 0;
    const faultContext: Context = {
      child: () => running,
      workspace,
      ...(disk ? { disk } : {}),
    };
    server.handle('anthropic', async (request) => {
      n += 1;
      return (await scenario.fault?.(n, request, faultContext)) ?? judge(request);
    });
    const first = cuelab(['run', specPath], { ...env, ...scenario.env });
    running = first.child;
    const ended = await first.done;
    if (scenario.firstRun === 'killed') expect(ended.signal).toBe('SIGKILL');
    if (scenario.firstRun === 'completed') {
      expect(ended.out).toContain('Completed.');
      expect(ended.code).toBe(0);
    }
    if (scenario.firstRun === 'stopped') {
      expect(ended.code).toBe(1);
      expect(ended.out).toMatch(/(Stopped|Paused): disk full at /);
      disk?.free();
    }
    server.handle('anthropic', judge);
    if (scenario.firstRun !== 'completed') {
      const resumed = await cuelab(['run', '--resume', 'latest'], env).done;
      expect(resumed.out).toContain('Completed.');
      expect(resumed.code).toBe(0);
    }
    const callsMade = server.callCount('anthropic') - callsBefore;

    const db = new Database(join(workspace, 'cuelab.sqlite'), { readonly: true });
    try {
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      const done = count(`SELECT count(DISTINCT rep_id) AS n FROM jobs WHERE state = 'done'`);
      const stored = count('SELECT count(*) AS n FROM judge_reps');
      expect(count('SELECT count(*) AS n FROM jobs')).toBe(repsExpected);
      expect(count('SELECT count(*) AS n FROM provider_calls')).toBe(callsNeeded);
      if (scenario.docker) expect(await workspaceContainers(workspace)).toEqual([]);
      return {
        scenario: scenario.name,
        expected: repsExpected,
        stored,
        duplicated: stored - done,
        lost: repsExpected - done,
        callsMade,
        callsNeeded,
        repeated: callsMade - callsNeeded,
      };
    } finally {
      db.close();
    }
  } finally {
    disk?.unmount();
  }
}

describe('fault matrix: a small real study under one fault at a time', () => {
  it.for(scenarios.map((scenario): [string, Scenario] => [scenario.name, scenario]))(
    '%s: 0 lost, 0 duplicated, only in-flight calls repeated',
    { timeout: 60_000 },
    async ([, scenario], context) => {
      const row = await runScenario(scenario, context);
      rows.push(row);
      expect(row).toMatchObject({ stored: repsExpected, duplicated: 0, lost: 0 });
      expect(row.repeated).toBe(scenario.repeated);
    },
  );
});
