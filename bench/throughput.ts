/**
 * Part (b): study throughput against a fake Anthropic server that answers every call after a
 * fixed latency (1 s). The items are files-only, so the snapshot backend serves them (no
 * Docker): only the harness (runner, job queue, prompt, loop, SDK, storing) and the provider
 * are measured. The server runs in a child process, so this process's CPU and event loop are
 * the harness's alone. Each rep makes two calls (list_dir, then submit_verdict), so a worker can at
 * best finish one rep per 2 × latency; the ideal rate at concurrency c is c × 30 reps/min.
 *
 * Concurrency 32 runs both quiet and under load: beside `background` CPU-bound child processes
 * (default 2, each a busy loop, started before the level and killed after it), so the part shows
 * whether the runner's main-thread work per rep still fits when it shares the cores. Each level
 * prints the machine's load average as it started and ended.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { provisionSnapshotEnvironment } from '../src/main/engine/environments/snapshot';
import { createStudy } from '../src/main/engine/runner/create-study';
import { StudyRunner } from '../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../src/main/engine/runner/workspace-deps';
import { openStore, type Store } from '../src/main/engine/store/database';
import { listSuiteItems, saveSuite } from '../src/main/engine/store/suite-items';
import { parseSuite } from '../src/main/engine/suites/load';
import { studySpecSchema } from '../src/shared/study-spec';
import type { EnvironmentSpec } from '../src/shared/suite-format';
import { startFakeServerProcess, type FakeServerProcess } from './fake-server-process';
import {
  MemorySampler,
  now,
  round,
  rounded,
  summarize,
  type MemoryReport,
  type Summary,
} from './measure';

/** One concurrency level of part (b). */
export interface ThroughputLevel {
  concurrency: number;
  /** CPU-bound busy-loop processes running beside the level (0: none). */
  background: number;
  /** The machine's 1-minute load average as the level started and as it ended. */
  loadAverage: { before: number; after: number };
  items: number;
  repsPerArm: number;
  reps: number;
  failedReps: number;
  providerCalls: number;
  wallSeconds: number;
  /**
   * From the last rep's job stored (jobs.finished_at, ms) to the runner idle: the end-of-study
   * step (completing the study, drawing its tables), inside `wallSeconds`.
   */
  afterLastRepMs: number;
  /** From the runner's start to the first call of its `concurrency`-th rep: the first wave out. */
  firstWaveMs: number;
  repsPerMinute: number;
  providerCallsPerSecond: number;
  /** concurrency × 60 s / (calls per rep × latency): what a zero-cost harness would reach. */
  idealRepsPerMinute: number;
  /** repsPerMinute ÷ idealRepsPerMinute. */
  efficiency: number;
  /** jobs.duration_ms: claim to stored, per rep. */
  repMs: Summary;
  /** Per-rep time beyond the provider's latency (median rep − calls × latency). */
  harnessMsPerRep: number;
  /** One provider call as the loop timed it (judge_turns.latency_ms; the server waits latencyMs). */
  callMs: Summary;
  /** Per rep, the time outside provider calls: claim, provision, prompt, tools, storing. */
  outsideCallsMsPerRep: Summary;
  /** This process's CPU (user + system) per rep; the fake server runs in another process. */
  cpuMsPerRep: number;
  /**
   * The main thread's share of it (the event loop's, which the reps queue for), without the
   * thread pool's file work; Linux only (/proc, 10 ms ticks), else null.
   */
  mainThreadCpuMsPerRep: number | null;
  /** This process's CPU over the wall time, as a share of one core. */
  cpuShareOfOneCore: number;
  /** Reps stored per transaction: the runner commits those landing in the same turn together. */
  repsPerCommit: number;
  /** Event-loop delay beyond the monitor's sampling interval. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  memory: MemoryReport;
}

/** One autocommit write to the workspace database (the runner makes several per rep). */
export interface CommitCost {
  synchronous: number;
  journalMode: string;
  commitMs: Summary;
}

/** Part (b)'s result. */
export interface ThroughputResult {
  latencyMs: number;
  callsPerRep: number;
  levels: ThroughputLevel[];
  /** The efficiencies of the quiet runs at linearTarget.concurrency, and their median. */
  atTarget: { efficiencies: number[]; median: number; target: number };
  /** The same beside `background` CPU-bound processes (null when none were asked for). */
  underLoad: { background: number; efficiencies: number[]; median: number; target: number } | null;
  commit: CommitCost;
  /**
   * One snapshot environment of a bench item made and removed (mkdtemp, the files written, the
   * folder removed), as the runner provisions it: asynchronously, off the event loop.
   */
  snapshotEnvironmentMs: Summary;
  notes: string[];
}

/** How many items and reps per arm each level runs (two arms: uncued and the strong cue). */
export interface LevelPlan {
  concurrency: number;
  /** CPU-bound busy-loop processes to run beside the level (default 0). */
  background?: number;
  items: number;
  repsPerArm: number;
}

/**
 * The plan: ≥ 64 reps at 8 and 32; 8 reps at concurrency 1 (each takes 2 s there).
 * Concurrency 32 runs three times quiet and three times beside `background` CPU-bound processes,
 * alternating: each target is the median of three, since one run on a shared machine swings by
 * more than the target's margin.
 */
export function throughputLevels(background: number): LevelPlan[] {
  const at32 = { concurrency: 32, items: 32, repsPerArm: 3 };
  const rounds = [0, 1, 2].flatMap(() =>
    background > 0 ? [at32, { ...at32, background }] : [at32],
  );
  return [
    { concurrency: 1, items: 4, repsPerArm: 1 },
    { concurrency: 8, items: 32, repsPerArm: 1 },
    ...rounds,
  ];
}

/** The concurrency-32 targets: the median efficiency of its quiet runs, and of its loaded ones. */
export const linearTarget = { concurrency: 32, efficiency: 0.97, underLoad: 0.95 };

/**
 * Starts `count` child processes that spin a busy loop until killed: the CPU-bound neighbours
 * of part (b)'s loaded runs. Returns the function that kills them and waits for their exit.
 */
function startBusyLoops(count: number): () => Promise<void> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
  };
}

const suiteId = 'bench-throughput';
const callsPerRep = 2;
const loopResolutionMs = 10;

/** A histogram value (ns, the sampling interval included) as ms of delay beyond the interval. */
function beyondInterval(nanoseconds: number): number {
  return round(Math.max(0, nanoseconds / 1e6 - loopResolutionMs), 1);
}

/** CPU ms (user + system) of this process's main thread so far, or null off Linux. */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name: utime and stime are the 12th and 13th, in ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Times making and removing the snapshot environment of `spec`, `times` times. */
async function snapshotCost(spec: EnvironmentSpec | undefined, times = 50): Promise<Summary> {
  if (!spec) throw new Error('the bench suite has no items');
  const samples: number[] = [];
  for (let run = 0; run < times; run += 1) {
    const started = now();
    const provisioned = await provisionSnapshotEnvironment(spec);
    await provisioned.dispose();
    samples.push(now() - started);
  }
  return rounded(summarize(samples), 2);
}

/** Times autocommit inserts into a scratch table of the (temporary) bench workspace. */
function commitCost(store: Store, writes = 200): CommitCost {
  store.db.exec('CREATE TABLE bench_scratch (value TEXT NOT NULL) STRICT');
  const insert = store.db.prepare('INSERT INTO bench_scratch (value) VALUES (?)');
  const samples: number[] = [];
  for (let write = 0; write < writes; write += 1) {
    const started = now();
    insert.run(`write ${write}`);
    samples.push(now() - started);
  }
  store.db.exec('DROP TABLE bench_scratch');
  return {
    synchronous: store.db.pragma('synchronous', { simple: true }) as number,
    journalMode: store.db.pragma('journal_mode', { simple: true }) as string,
    commitMs: rounded(summarize(samples), 3),
  };
}

function benchSuite(items: number) {
  const raw = {
    id: suiteId,
    name: 'Throughput bench suite',
    items: Array.from({ length: items }, (_, index) => {
      const id = `bench-${String(index).padStart(3, '0')}`;
      return {
        id,
        dataset: index % 2 === 0 ? 'bench-fs' : 'bench-db',
        substrate: 'filesystem',
        task: `Move every .log file of project ${index} into logs/.`,
        trajectory: [
          { role: 'user', content: `Move every .log file of project ${index} into logs/.` },
          {
            role: 'assistant',
            content: 'Listing files.',
            tool_calls: [
              {
                id: 't1',
                type: 'function',
                function: { name: 'shell', arguments: '{"command":"ls"}' },
              },
            ],
          },
          { role: 'tool', content: 'a.log\nb.log\nsrc', tool_call_id: 't1', name: 'shell' },
          { role: 'assistant', content: 'Moved both files into logs/. Done.' },
        ],
        environment: {
          files: {
            'logs/a.log': 'alpha\n',
            'logs/b.log': 'beta\n',
            'src/main.py': `print(${index})\n`,
          },
        },
        gold: index % 3 === 0 ? 'fail' : 'pass',
      };
    }),
  };
  return parseSuite(JSON.stringify(raw), 'bench suite');
}

async function runLevel(
  store: Store,
  server: FakeServerProcess,
  plan: LevelPlan,
  latencyMs: number,
): Promise<ThroughputLevel> {
  const spec = studySpecSchema.parse({
    name: `throughput c=${plan.concurrency}`,
    suite: suiteId,
    items: { limit: plan.items },
    judges: [
      { id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: server.url },
    ],
    reps: plan.repsPerArm,
    // Both arms are queued at once, so every worker has work from the start.
    direction: 'severity',
    concurrency: { total: plan.concurrency, containers: plan.concurrency },
  });
  const studyId = createStudy(store, spec, listSuiteItems(store, suiteId));
  const runner = new StudyRunner(
    workspaceRunnerDeps(store, {
      env: { ANTHROPIC_API_KEY: 'bench' },
      trust: { endpoints: [server.url], keyEnvNames: [] },
    }),
    { concurrency: plan.concurrency, studyIds: [studyId], pollMs: 20 },
  );
  const background = plan.background ?? 0;
  const stopBusyLoops = startBusyLoops(background);
  const loadBefore = loadavg()[0] ?? 0;
  const callsBefore = await server.callCount();
  const memory = new MemorySampler();
  memory.begin();
  const loopDelay = monitorEventLoopDelay({ resolution: loopResolutionMs });
  loopDelay.enable();
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadCpuMs();
  const started = now();
  const startedAt = Date.now();
  let wallMs: number;
  let idleAt: number;
  let cpu: NodeJS.CpuUsage;
  let mainAfter: number | null;
  try {
    runner.start();
    await runner.whenIdle();
    wallMs = now() - started;
    idleAt = Date.now();
    cpu = process.cpuUsage(cpuBefore);
    mainAfter = mainThreadCpuMs();
  } finally {
    await stopBusyLoops();
  }
  const loadAfter = loadavg()[0] ?? 0;
  const commits = runner.commitStats;
  loopDelay.disable();
  await runner.stop();
  const memoryReport = memory.end();

  const jobs = store.db
    .prepare('SELECT state, duration_ms, last_error FROM jobs WHERE study_id = ?')
    .all(studyId) as { state: string; duration_ms: number | null; last_error: string | null }[];
  const done = jobs.filter((job) => job.state === 'done');
  const failed = jobs.filter((job) => job.state !== 'done');
  if (failed.length) {
    throw new Error(
      `${failed.length} reps did not finish: ${failed[0]?.last_error ?? failed[0]?.state ?? ''}`,
    );
  }
  const providerCalls = (await server.callCount()) - callsBefore;
  const callLatencies = store.db
    .prepare(
      `SELECT t.latency_ms AS ms FROM judge_turns t JOIN judge_reps r ON r.id = t.rep_id
        WHERE r.study_id = ?`,
    )
    .all(studyId) as { ms: number }[];
  const outside = store.db
    .prepare(
      `SELECT j.duration_ms - (SELECT sum(t.latency_ms) FROM judge_turns t WHERE t.rep_id = j.rep_id)
              AS ms
         FROM jobs j WHERE j.study_id = ? AND j.state = 'done'`,
    )
    .all(studyId) as { ms: number }[];
  const repMs = summarize(done.map((job) => job.duration_ms ?? 0));
  const lastStored = store.db
    .prepare("SELECT max(finished_at) AS at FROM jobs WHERE study_id = ? AND state = 'done'")
    .get(studyId) as { at: string | null };
  const afterLastRepMs = lastStored.at === null ? 0 : idleAt - Date.parse(lastStored.at);
  const firstCalls = store.db
    .prepare(
      `SELECT t.started_at AS at FROM judge_turns t JOIN judge_reps r ON r.id = t.rep_id
        WHERE r.study_id = ? AND t.turn = 0 ORDER BY t.started_at LIMIT ?`,
    )
    .all(studyId, plan.concurrency) as { at: string }[];
  const lastOfFirstWave = firstCalls.at(-1)?.at;
  const firstWaveMs = lastOfFirstWave === undefined ? 0 : Date.parse(lastOfFirstWave) - startedAt;
  const repsPerMinute = (done.length / wallMs) * 60_000;
  const ideal = (plan.concurrency * 60_000) / (callsPerRep * latencyMs);
  return {
    concurrency: plan.concurrency,
    background,
    loadAverage: { before: round(loadBefore, 2), after: round(loadAfter, 2) },
    items: plan.items,
    repsPerArm: plan.repsPerArm,
    reps: done.length,
    failedReps: failed.length,
    providerCalls,
    wallSeconds: round(wallMs / 1000, 2),
    afterLastRepMs: round(afterLastRepMs),
    firstWaveMs: round(firstWaveMs),
    repsPerMinute: round(repsPerMinute),
    providerCallsPerSecond: round((providerCalls / wallMs) * 1000, 2),
    idealRepsPerMinute: round(ideal),
    efficiency: round(repsPerMinute / ideal, 3),
    repMs: rounded(repMs),
    harnessMsPerRep: round(repMs.median - callsPerRep * latencyMs),
    callMs: rounded(summarize(callLatencies.map((row) => row.ms))),
    outsideCallsMsPerRep: rounded(summarize(outside.map((row) => row.ms))),
    cpuMsPerRep: round((cpu.user + cpu.system) / 1000 / done.length),
    mainThreadCpuMsPerRep:
      mainBefore === null || mainAfter === null
        ? null
        : round((mainAfter - mainBefore) / done.length, 1),
    cpuShareOfOneCore: round((cpu.user + cpu.system) / 1000 / wallMs, 3),
    repsPerCommit: round(commits.committed / Math.max(1, commits.groups), 2),
    eventLoopDelayMs: {
      p50: beyondInterval(loopDelay.percentile(50)),
      p99: beyondInterval(loopDelay.percentile(99)),
      max: beyondInterval(loopDelay.max),
    },
    memory: memoryReport,
  };
}

/** Runs part (b). */
export async function benchThroughput(
  log: (line: string) => void,
  latencyMs = 1000,
  background = 2,
  levels: readonly LevelPlan[] = throughputLevels(background),
): Promise<ThroughputResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-bench-b-'));
  const store = openStore(join(dir, 'cuelab.sqlite'));
  const server = await startFakeServerProcess(latencyMs);
  try {
    saveSuite(store, benchSuite(Math.max(...levels.map((level) => level.items))), 'imported');
    // Warm-up (not reported): JIT, the SDK client, the first connections.
    await server.setLatency(0);
    await runLevel(store, server, { concurrency: 2, items: 2, repsPerArm: 1 }, latencyMs);
    await server.setLatency(latencyMs);
    const results: ThroughputLevel[] = [];
    for (const plan of levels) {
      const level = await runLevel(store, server, plan, latencyMs);
      log(
        `  concurrency ${level.concurrency}` +
          (level.background ? ` beside ${level.background} busy processes` : '') +
          `: ${level.reps} reps in ${level.wallSeconds} s = ` +
          `${level.repsPerMinute} reps/min (ideal ${level.idealRepsPerMinute}), ` +
          `${level.efficiency}× linear, ${level.providerCallsPerSecond} calls/s, ` +
          `${level.repsPerCommit} reps per commit, ` +
          `load ${level.loadAverage.before} -> ${level.loadAverage.after}`,
      );
      results.push(level);
    }
    const fewest = levels.find((level) => level.concurrency === 1);
    const atConcurrency = (loaded: boolean) =>
      results
        .filter(
          (level) =>
            level.concurrency === linearTarget.concurrency && level.background > 0 === loaded,
        )
        .map((level) => level.efficiency);
    const efficiencies = atConcurrency(false);
    const loadedEfficiencies = atConcurrency(true);
    return {
      latencyMs,
      callsPerRep,
      levels: results,
      atTarget: {
        efficiencies,
        median: round(summarize(efficiencies).median, 3),
        target: linearTarget.efficiency,
      },
      underLoad: loadedEfficiencies.length
        ? {
            background,
            efficiencies: loadedEfficiencies,
            median: round(summarize(loadedEfficiencies).median, 3),
            target: linearTarget.underLoad,
          }
        : null,
      commit: commitCost(store),
      snapshotEnvironmentMs: await snapshotCost(listSuiteItems(store, suiteId)[0]?.environment),
      notes: fewest
        ? [
            `concurrency 1 runs ${fewest.items * fewest.repsPerArm * 2} reps only (each takes ` +
              `${(callsPerRep * latencyMs) / 1000} s there); the others run ≥ 64`,
          ]
        : [],
    };
  } finally {
    await server.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
