/**
 * Part (c), cold open and memory: a fresh engine process opens the paper-scale workspace, draws
 * the study's first table (timed: the cold open), then every table, while its RSS is sampled;
 * then, in the same process, the floor: one plain SQLite scan of the rows the tables need. A
 * fresh process, because the bench process itself generated the workspace and holds its
 * garbage, and because "after the engine starts" means no cache in memory. Run twice: first
 * with no persisted tables (a study no engine drew before), then as the next start finds it.
 */
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { TABLE_NAMES, reportTable } from '../src/main/engine/reports';
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

/** Both starts: without persisted tables, then with them. */
export interface ColdOpenResult {
  firstStart: EngineStart;
  nextStart: EngineStart;
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

function forkedStart(path: string, studyId: string): Promise<EngineStart> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--engine-start', path, studyId], {
      cwd: join(__dirname, '..'),
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: EngineStart | undefined;
    child.on('message', (message: EngineStart) => (result = message));
    child.on('error', reject);
    child.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`engine start exited with ${code ?? 'signal'}`)),
    );
  });
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
  const firstStart = await forkedStart(path, studyId);
  log(`  engine start, no tables persisted: ${describe(firstStart)}`);
  const nextStart = await forkedStart(path, studyId);
  log(`  engine start, tables persisted:    ${describe(nextStart)}`);
  return { firstStart, nextStart, targets: { ratio: 1, rssMb: 400 } };
}

if (process.argv[2] === '--engine-start') {
  const [path, studyId] = process.argv.slice(3);
  engineStart(path ?? '', studyId ?? '')
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
