/**
 * Part (e), "the engine never blocks": on the paper-scale workspace with stored
 * messages (stored-messages.ts), a real `cuelab serve` (the built CLI) is asked over HTTP, as
 * the window and the CLI ask it, so whatever the engine does with the work (its thread, a
 * worker) is what is measured. A health request goes every 20 ms throughout; its p50/p99/max
 * alone and while each heavy job runs, each job's own time, and the load, are printed:
 *   the end-of-study drawing (nothing persisted: every report table requested in turn, as the
 *   window does), a workbench page, a search matching nothing and one matching rarely, an
 *   Inspect export and a bundle export;
 * the engine's time to its ready line and a CLI command's to its first request (start-times.ts)
 * beside Node's own start; and the first table of a study interrupted by quitting (its tables
 * persisted by the runner's hook before its last reps landed, then the engine restarted): the
 * window's first, labelled table (`current: 'stale-ok'`) and the current one (the drawing the
 * first started, in the reports worker), each beside one plain scan of the rows (cold-open.ts's
 * floor) measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TABLE_NAMES, outdatedReportTable, persistedReportTable } from '../src/main/engine/reports';
import {
  forgetPersistedTables,
  persistedTablesDir,
} from '../src/main/engine/reports/persisted-tables';
import { scanNativeAnalysisColumns } from '../src/main/engine/store/analysis-rows';
import { openStore } from '../src/main/engine/store/database';
import { createLabClient } from '../src/shared/lab-client';
import { landReps, persistBeforeLastReps } from '../test/helpers/interrupted-study';
import type { ServeProcess } from '../test/helpers/serve-process';
import { persistStudyTables } from './cold-open';
import { healthAlone, loadNow, probed, type HealthSpread } from './health-probe';
import { now, round, sampleMs, summarize } from './measure';
import { timedCliStart, timedServe, type CliStart } from './start-times';
import {
  ABSENT_WORD,
  RARE_WORD,
  messagesWorkspace,
  type MessagesWorkspace,
} from './stored-messages';

/** One heavy job over HTTP and the health latencies meanwhile. */
export interface HeavyJob {
  name: string;
  ms: number;
  /** What it returned (rows, bytes, logs), or its error. */
  detail: string;
  failed: boolean;
  health: HealthSpread;
  load: number;
}

/** What part (e) measured. */
export interface ResponsivenessResult {
  workspace: MessagesWorkspace;
  /** Node's own start: `node -e 0` to its exit, median of 3 (the floor of both starts). */
  nodeStartMs: number;
  /** Spawn of `cuelab serve` to its ready line, each start of the run. */
  readyMs: number[];
  cli: CliStart[];
  healthAlone: HealthSpread & { load: number };
  jobs: HeavyJob[];
  interrupted: {
    /** Reps that landed after the tables were persisted. */
    lateReps: number;
    /** What the first answer said it covers: the study's done reps then and now. */
    drawnFromReps: number;
    studyReps: number;
    /**
     * The engine's first answer after its ready line (a health request sent at once): how long
     * its own start-up work keeps its thread before any request is answered.
     */
    firstAnswerMs: number;
    /** The window's first table (asked `stale-ok`), sent once that answer came: labelled. */
    firstTableMs: number;
    /**
     * A second table asked `stale-ok` at once after the first: the engine's own path for an
     * out-of-date table (a stat and a file already read), with the start-up work behind it.
     */
    secondTableMs: number;
    /**
     * The engine thread's own work for the first labelled table, in the bench process on the
     * same files (`persistedReportTable` missing, then `outdatedReportTable` reading the file
     * afresh), median of 3: what the answer costs without the engine's start-up beside it.
     */
    inProcessMs: number;
    /** The current table, asked at once after the first (it waits for the drawing). */
    currentTableMs: number;
    /** One plain scan of the rows' columns, median of 3, in the bench process. */
    floorMs: number;
    /** firstTableMs ÷ floorMs. */
    ratio: number;
    /** currentTableMs ÷ floorMs. */
    currentRatio: number;
    load: number;
  };
}

/** Reps of the study that land after its tables were persisted (160 of 70,560 at full scale). */
const LATE_REPS = 160;

/**
 * A client whose requests give up after `seconds`: an export not finished by then is printed
 * as such, with the health figures of that wait (the engine is restarted before anything else).
 */
function patientClient(serve: ServeProcess, seconds: number) {
  return createLabClient(serve.address, (url, init) =>
    fetch(url, { ...init, signal: AbortSignal.timeout(seconds * 1000) }),
  );
}

/** Stops the engine; SIGKILL when a job it cannot leave keeps it from exiting in 10 s. */
async function stopEngine(serve: ServeProcess): Promise<void> {
  const killer = setTimeout(() => serve.child.kill('SIGKILL'), 10_000);
  try {
    await serve.stop();
  } finally {
    clearTimeout(killer);
  }
}

function nodeStartMs(): number {
  const samples: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const started = now();
    spawnSync(process.execPath, ['-e', '0']);
    samples.push(now() - started);
  }
  return round(summarize(samples).median);
}

/**
 * A study interrupted by quitting: its tables persisted by the runner's end-of-study hook (run in
 * a process of its own, cold-open.ts) while its last `count` reps had not landed, then those
 * reps landed (the engine quit before it drew again).
 */
async function interruptStudy(workspace: string, studyId: string, count: number): Promise<void> {
  const { held } = await persistBeforeLastReps(workspace, studyId, count, persistStudyTables);
  landReps(workspace, held);
}

/** The first labelled table's own work on the engine's thread, in this process, median of 3. */
async function outdatedPathMs(path: string, studyId: string): Promise<number> {
  const store = openStore(path);
  try {
    const samples = await sampleMs(3, () => {
      forgetPersistedTables(store);
      if (persistedReportTable(store, studyId, 'flips')) throw new Error('flips is current');
      if (!outdatedReportTable(store, studyId, 'flips')) throw new Error('no outdated flips');
    });
    return round(summarize(samples).median);
  } finally {
    store.close();
  }
}

async function plainScanMs(path: string, studyId: string): Promise<number> {
  const store = openStore(path);
  try {
    return round(
      summarize(await sampleMs(3, () => scanNativeAnalysisColumns(store, studyId))).median,
    );
  } finally {
    store.close();
  }
}

/** Runs `work` probed and names what it returned. */
async function heavyJob<T>(
  serve: ServeProcess,
  name: string,
  work: () => Promise<T>,
  describe: (value: T) => string,
  log: (line: string) => void,
): Promise<HeavyJob> {
  const run = await probed(serve, work);
  const failed = run.value instanceof Error;
  let detail: string;
  try {
    detail = run.value instanceof Error ? run.value.message : describe(run.value);
  } catch (error) {
    detail = error instanceof Error ? error.message : String(error);
  }
  const job = {
    name,
    ms: run.ms,
    detail,
    failed: failed || detail.startsWith('failed'),
    health: run.health,
    load: run.load,
  };
  log(
    `  ${name}: ${String(job.ms)} ms (${detail}); health p50 ${String(job.health.p50)} / p99 ` +
      `${String(job.health.p99)} / max ${String(job.health.max)} ms (load ${String(job.load)})`,
  );
  return job;
}

/** An answer's value, or a thrown error naming the engine's message. */
function valueOf<T>(answer: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

/** Every heavy job in turn on the running engine (the drawing first: nothing is persisted). */
async function heavyJobs(
  serve: ServeProcess,
  path: string,
  studyId: string,
  log: (line: string) => void,
) {
  const { lab } = serve;
  rmSync(persistedTablesDir(path), { recursive: true, force: true });
  const drawing = await heavyJob(
    serve,
    'end-of-study drawing (every table)',
    async () => {
      const times: string[] = [];
      for (const table of TABLE_NAMES) {
        const started = now();
        valueOf(await lab.reportTable({ studyId, table }));
        times.push(`${table} ${String(Math.round(now() - started))}`);
      }
      return times;
    },
    (times) => `ms per table: ${times.join(', ')}`,
    log,
  );
  const alone = { ...(await healthAlone(serve, 2000)), load: loadNow() };
  log(
    `  health alone: p50 ${String(alone.p50)} / p99 ${String(alone.p99)} / max ` +
      `${String(alone.max)} ms (load ${String(alone.load)})`,
  );
  const rows = (answer: Awaited<ReturnType<typeof lab.queryReps>>) =>
    `${String(valueOf(answer).rows.length)} rows`;
  const jobs = [drawing];
  jobs.push(await heavyJob(serve, 'workbench page', () => lab.queryReps({ studyId }), rows, log));
  jobs.push(
    await heavyJob(
      serve,
      'search matching nothing',
      () => lab.queryReps({ studyId, search: ABSENT_WORD }),
      rows,
      log,
    ),
  );
  jobs.push(
    await heavyJob(
      serve,
      'search matching 1 message in 200',
      () => lab.queryReps({ studyId, search: RARE_WORD }),
      rows,
      log,
    ),
  );
  const cli: CliStart[] = [];
  for (let run = 0; run < 3; run += 1) cli.push(await timedCliStart(serve, studyId));
  log(
    `  CLI to its first request: ${cli.map((entry) => String(entry.firstRequestMs)).join(', ')} ms ` +
      `(to exit ${cli.map((entry) => String(entry.exitMs)).join(', ')} ms; load ${String(loadNow())})`,
  );
  return { alone, jobs, cli };
}

/**
 * The Inspect and the bundle export, each on an engine of its own (started, timed to its ready
 * line, stopped), so an export given up after `jobSeconds` cannot slow the next measurement.
 */
async function exportJobs(
  dir: string,
  studyId: string,
  jobSeconds: number,
  readyMs: number[],
  log: (line: string) => void,
): Promise<HeavyJob[]> {
  const jobs: HeavyJob[] = [];
  const exports = [
    {
      name: 'Inspect export',
      // As `cuelab export-inspect` asks: one log per request.
      work: (lab: ReturnType<typeof createLabClient>) => async () => {
        let count = 1;
        let samples = 0;
        for (let log = 0; log < count; log += 1) {
          const answer = valueOf(await lab.exportInspect({ studyId, log }));
          count = answer.count;
          samples += answer.logs.reduce((sum, entry) => sum + entry.samples, 0);
        }
        return `${String(count)} logs, ${String(samples)} samples`;
      },
    },
    {
      name: 'bundle export',
      // Its outcome is what a researcher gets: the bytes written, or the engine's refusal (a
      // study too large for a bundle), and whether the engine still answers afterwards.
      work: (lab: ReturnType<typeof createLabClient>) => async () => {
        const answer = await lab.exportBundle({ studyId });
        const alive = (await lab.health({})).ok ? 'engine answering after' : 'ENGINE GONE after';
        if (!answer.ok) return `refused (${answer.error.code}): ${answer.error.message}; ${alive}`;
        const bundle = answer.value;
        return (
          `${String(bundle.reps)} reps, ${String(bundle.bytes)} bytes ` +
          `(${String(round(bundle.bytes / 2 ** 20))} MB) written; ${alive}`
        );
      },
    },
  ];
  for (const entry of exports) {
    const started = await timedServe(dir);
    readyMs.push(started.readyMs);
    try {
      const lab = patientClient(started.serve, jobSeconds);
      jobs.push(
        await heavyJob(started.serve, entry.name, entry.work(lab), (detail) => detail, log),
      );
    } finally {
      await stopEngine(started.serve);
    }
  }
  return jobs;
}

/** Runs part (e). */
export async function benchResponsiveness(
  log: (line: string) => void,
  options: {
    messagesPerRep: number;
    itemStride: number;
    /** Seconds an export may take before it is given up (and its engine stopped). */
    jobSeconds: number;
    workspaceFile?: string | undefined;
  },
): Promise<ResponsivenessResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-bench-e-'));
  const path = join(dir, 'cuelab.sqlite');
  try {
    const workspace = messagesWorkspace(
      path,
      {
        perRep: options.messagesPerRep,
        itemStride: options.itemStride,
        workspaceFile: options.workspaceFile,
      },
      log,
    );
    const { studyId } = workspace;
    log(
      `  workspace: ${String(workspace.reps)} reps, ${String(workspace.messages)} messages ` +
        `(${String(workspace.distinctTexts)} distinct texts), ${String(round(workspace.fileBytes / 2 ** 20))} MB`,
    );
    const nodeStart = nodeStartMs();
    const readyMs: number[] = [];
    const first = await timedServe(dir);
    readyMs.push(first.readyMs);
    log(
      `  engine ready line: ${String(first.readyMs)} ms (node alone ${String(nodeStart)} ms; load ${String(loadNow())})`,
    );
    let measured: Awaited<ReturnType<typeof heavyJobs>>;
    try {
      measured = await heavyJobs(first.serve, path, studyId, log);
    } finally {
      await stopEngine(first.serve);
    }
    measured.jobs.push(...(await exportJobs(dir, studyId, options.jobSeconds, readyMs, log)));

    await interruptStudy(dir, studyId, LATE_REPS);
    const floorMs = await plainScanMs(path, studyId);
    const inProcessMs = await outdatedPathMs(path, studyId);
    const second = await timedServe(dir);
    readyMs.push(second.readyMs);
    let opened: { ms: number; drawnFromReps: number; studyReps: number };
    let currentTableMs: number;
    let firstAnswerMs: number;
    let secondTableMs: number;
    try {
      // The window connects before it opens a study; the wait for that first answer is the
      // engine's start-up, measured apart from the table's own time.
      let started = now();
      valueOf(await second.serve.lab.health({}));
      firstAnswerMs = round(now() - started);
      // As the window opens a study: the table as last drawn, labelled, at once; then, as
      // `study.tables` tells it the drawing ended, the current one.
      started = now();
      const answer = valueOf(
        await second.serve.lab.reportTable({ studyId, table: 'flips', current: 'stale-ok' }),
      );
      opened = {
        ms: round(now() - started),
        drawnFromReps: answer.outdated?.drawnFromReps ?? -1,
        studyReps: answer.outdated?.studyReps ?? -1,
      };
      const again = now();
      valueOf(
        await second.serve.lab.reportTable({ studyId, table: 'severity', current: 'stale-ok' }),
      );
      secondTableMs = round(now() - again);
      const current = valueOf(await second.serve.lab.reportTable({ studyId, table: 'flips' }));
      if (current.outdated) throw new Error('the default request answered an outdated table');
      currentTableMs = round(now() - started);
    } finally {
      await stopEngine(second.serve);
    }
    const interrupted = {
      lateReps: LATE_REPS,
      firstAnswerMs,
      drawnFromReps: opened.drawnFromReps,
      studyReps: opened.studyReps,
      firstTableMs: opened.ms,
      secondTableMs,
      inProcessMs,
      currentTableMs,
      floorMs,
      ratio: round(opened.ms / floorMs, 3),
      currentRatio: round(currentTableMs / floorMs, 3),
      load: loadNow(),
    };
    log(
      `  interrupted study (tables persisted by the runner's hook before its last ${String(LATE_REPS)} reps landed): ` +
        `first table ${String(opened.ms)} ms = ${String(interrupted.ratio)}× the plain scan (${String(floorMs)} ms), ` +
        `labelled "drawn from ${String(opened.drawnFromReps)} of ${String(opened.studyReps)} reps"; a second ` +
        `${String(secondTableMs)} ms; in process ${String(inProcessMs)} ms; current table ` +
        `${String(currentTableMs)} ms = ${String(interrupted.currentRatio)}×; engine ready ${String(second.readyMs)} ms, ` +
        `its first answer after that ${String(firstAnswerMs)} ms ` +
        `(load ${String(interrupted.load)})`,
    );
    return {
      workspace,
      nodeStartMs: nodeStart,
      readyMs,
      cli: measured.cli,
      healthAlone: measured.alone,
      jobs: measured.jobs,
      interrupted,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
