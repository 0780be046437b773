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
 * persisted, then reps changed, then the engine restarted) beside one plain scan of the rows
 * (cold-open.ts's floor) measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TABLE_NAMES } from '../src/main/engine/reports';
import { persistedTablesDir } from '../src/main/engine/reports/persisted-tables';
import { scanNativeAnalysisColumns } from '../src/main/engine/store/analysis-rows';
import { openStore } from '../src/main/engine/store/database';
import { createLabClient } from '../src/shared/lab-client';
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
    /** How its tables came to be persisted before the reps changed. */
    persistedBy: string;
    changedReps: number;
    firstTableMs: number;
    /** One plain scan of the rows' columns, median of 3, in the bench process. */
    floorMs: number;
    ratio: number;
    load: number;
  };
}

const CHANGED_REPS = 32;

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

/** Flips the verdict of the study's newest `count` reps: reps written after a drawing. */
function changeReps(path: string, studyId: string, count: number): void {
  const store = openStore(path);
  try {
    store.db
      .prepare(
        `UPDATE judge_reps SET final_verdict_json = json_set(final_verdict_json, '$.outcome',
           CASE json_extract(final_verdict_json, '$.outcome') WHEN 'pass' THEN 'fail' ELSE 'pass' END)
         WHERE rowid IN (SELECT rowid FROM judge_reps WHERE study_id = ?
                           AND final_verdict_json IS NOT NULL ORDER BY rowid DESC LIMIT ?)`,
      )
      .run(studyId, count);
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

function persistedFiles(path: string): string[] {
  try {
    return readdirSync(persistedTablesDir(path));
  } catch {
    return [];
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
      work: (lab: ReturnType<typeof createLabClient>) => async () => {
        const bundle = valueOf(await lab.exportBundle({ studyId }));
        return `${String(bundle.reps)} reps, ${String(round(bundle.bytes / 2 ** 20))} MB`;
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

    let persistedBy = 'the drawing over HTTP';
    if (persistedFiles(path).length === 0) {
      persistedBy = "the runner's end-of-study hook (the drawing persisted nothing)";
      await persistStudyTables(path, studyId);
    }
    changeReps(path, studyId, CHANGED_REPS);
    const floorMs = await plainScanMs(path, studyId);
    const second = await timedServe(dir);
    readyMs.push(second.readyMs);
    let firstTableMs: number;
    try {
      const started = now();
      valueOf(await second.serve.lab.reportTable({ studyId, table: 'flips' }));
      firstTableMs = round(now() - started);
    } finally {
      await stopEngine(second.serve);
    }
    const interrupted = {
      persistedBy,
      changedReps: CHANGED_REPS,
      firstTableMs,
      floorMs,
      ratio: round(firstTableMs / floorMs, 3),
      load: loadNow(),
    };
    log(
      `  interrupted study (tables persisted by ${persistedBy}, then ${String(CHANGED_REPS)} reps changed): first table ` +
        `${String(firstTableMs)} ms = ${String(interrupted.ratio)}× the plain scan (${String(floorMs)} ms); ` +
        `engine ready ${String(second.readyMs)} ms (load ${String(interrupted.load)})`,
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
