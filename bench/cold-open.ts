/**
 * Part (c), cold open and memory: a fresh engine process opens the paper-scale workspace, draws
 * the study's first table (timed: the cold open), then every table, while its RSS is sampled;
 * then, in the same process, the floor: one plain SQLite scan of the rows the tables need. A
 * fresh process, because the bench process itself generated the workspace and holds its
 * garbage, and because "after the engine starts" means no cache in memory.
 *
 * The generator writes rows straight into SQLite, so the study then looks as a runner leaves
 * it only after the hook the runner calls when a study stops running
 * (reports/tables-current.ts), run here in its own process, timed and its RSS sampled. In order:
 * an engine start with nothing persisted (a study no runner of this version finished: an older
 * engine's, or the runner stopped before the end), the runner's hook, and the engine start
 * that follows it, which the targets are checked on.
 */
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { TABLE_NAMES, keepStudyTablesCurrent, reportTable } from '../src/main/engine/reports';
import { persistedTablesDir } from '../src/main/engine/reports/persisted-tables';
import { scanNativeAnalysisColumns } from '../src/main/engine/store/analysis-rows';
import { openStore } from '../src/main/engine/store/database';
import { MemorySampler, now, round, sampleMs, summarize, type MemoryReport } from './measure';

/** One engine start. */
export interface EngineStart {
  openStoreMs: number;
  /** The first table (flips) after the engine started. */
  firstTableMs: number;
  /** Every table in turn after the first, as the results view asks for them. */
  allTablesMs: number;
  /** Median of 3 plain scans of the rows' columns, in the same process. */
  floorMs: number;
  /** firstTableMs ÷ floorMs (target ≤ 1). */
  ratio: number;
  /** While opening and drawing every table (the floor scans excluded). */
  memory: MemoryReport;
  /** process.memoryUsage() at the peak-RSS sample's end: where the memory is. */
  breakdownMb: { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
}

/** The runner's hook at a study's end, in a process of its own. */
export interface StudyEnd {
  /** Every table drawn and persisted. */
  tablesMs: number;
  memory: MemoryReport;
}

/** Both starts and the runner's hook between them. */
export interface ColdOpenResult {
  /** Nothing persisted: every table built from the rows (not what a finished run leaves). */
  neverDrawn: EngineStart;
  studyEnd: StudyEnd;
  /** After the runner's hook: the start the targets are checked on. */
  afterRun: EngineStart;
  targets: { ratio: number; rssMb: number };
}

async function engineStart(path: string, studyId: string): Promise<EngineStart> {
  const memory = new MemorySampler(10);
  memory.begin();
  let started = now();
  const store = openStore(path);
  const openStoreMs = now() - started;
  try {
    started = now();
    reportTable(store, studyId, 'flips');
    const firstTableMs = now() - started;
    started = now();
    for (const name of TABLE_NAMES) reportTable(store, studyId, name);
    const allTablesMs = now() - started;
    const usage = process.memoryUsage();
    const report = memory.end();
    const floor = summarize(await sampleMs(3, () => scanNativeAnalysisColumns(store, studyId)));
    const mb = (bytes: number) => round(bytes / 2 ** 20);
    return {
      openStoreMs: round(openStoreMs),
      firstTableMs: round(firstTableMs),
      allTablesMs: round(allTablesMs),
      floorMs: round(floor.median),
      ratio: round(firstTableMs / floor.median, 4),
      memory: report,
      breakdownMb: {
        heapUsed: mb(usage.heapUsed),
        heapTotal: mb(usage.heapTotal),
        external: mb(usage.external),
        arrayBuffers: mb(usage.arrayBuffers),
      },
    };
  } finally {
    store.close();
  }
}

async function studyEnd(path: string, studyId: string): Promise<StudyEnd> {
  const memory = new MemorySampler(10);
  memory.begin();
  const store = openStore(path);
  try {
    const started = now();
    await keepStudyTablesCurrent(store, studyId);
    return { tablesMs: round(now() - started), memory: memory.end() };
  } finally {
    store.close();
  }
}

function forked<T>(mode: '--engine-start' | '--study-end', path: string, studyId: string) {
  return new Promise<T>((resolve, reject) => {
    const child = fork(__filename, [mode, path, studyId], {
      cwd: join(__dirname, '..'),
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: T | undefined;
    child.on('message', (message: T) => (result = message));
    child.on('error', reject);
    child.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`engine start exited with ${code ?? 'signal'}`)),
    );
  });
}

/** The runner's end-of-study hook on the workspace at `path`, in a process of its own. */
export function persistStudyTables(path: string, studyId: string): Promise<StudyEnd> {
  return forked<StudyEnd>('--study-end', path, studyId);
}

function describe(start: EngineStart): string {
  return (
    `first table ${start.firstTableMs.toFixed(0)} ms = ${start.ratio}× floor ` +
    `(${start.floorMs.toFixed(0)} ms); every table ${start.allTablesMs.toFixed(0)} ms; RSS peak ` +
    `${start.memory.rssPeakMb} MB (heap ${start.breakdownMb.heapUsed} MB, external ` +
    `${start.breakdownMb.external} MB at the end)`
  );
}

/** Two engine starts on the generated workspace at `path`. */
export async function benchColdOpen(
  path: string,
  studyId: string,
  log: (line: string) => void,
): Promise<ColdOpenResult> {
  rmSync(persistedTablesDir(path), { recursive: true, force: true });
  const neverDrawn = await forked<EngineStart>('--engine-start', path, studyId);
  log(`  engine start, nothing persisted:   ${describe(neverDrawn)}`);
  rmSync(persistedTablesDir(path), { recursive: true, force: true });
  const end = await persistStudyTables(path, studyId);
  log(
    `  runner's hook at the study's end:  every table drawn and persisted in ` +
      `${end.tablesMs.toFixed(0)} ms; RSS peak ${end.memory.rssPeakMb} MB`,
  );
  const afterRun = await forked<EngineStart>('--engine-start', path, studyId);
  log(`  engine start after the run's hook: ${describe(afterRun)}`);
  return { neverDrawn, studyEnd: end, afterRun, targets: { ratio: 1, rssMb: 400 } };
}

const mode = process.argv[2];
if (mode === '--engine-start' || mode === '--study-end') {
  const [path, studyId] = process.argv.slice(3);
  const work = mode === '--engine-start' ? engineStart : studyEnd;
  work(path ?? '', studyId ?? '')
    .then((result) => {
      process.send?.(result);
      // The IPC channel would keep this process alive.
      process.disconnect?.();
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
