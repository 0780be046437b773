/**
 * Part (c), timing: generate the paper-scale workspace, reopen it as the app would, and time
 * `studyRows` and every report table, median of 3, each beside the floor measured in the same
 * run: one plain SQLite scan of the columns the tables need (every table within 3×
 * it). `reportTable` is what the engine serves (per study revision, table-cache.ts); the cold
 * build (rows read and analysed from nothing) is printed beside it. Then the live refresh
 * (live-refresh.ts), the replay of a 500-call pair (replay-timing.ts) and this process's RSS
 * meanwhile. Before all that, two fresh engine processes time the cold open and the engine's RSS
 * while it draws every table (cold-open.ts). A check compares the generated flips table with Table 6, so the
 * timed data is known to look like the paper's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TABLE_6 } from '../src/main/engine/paper/numbers';
import {
  TABLE_NAMES,
  TABLES,
  forgetStudyRows,
  readStudyRows,
  reportTable,
  type ReportTable,
} from '../src/main/engine/reports';
import {
  forgetPersistedTables,
  persistedTablesDir,
} from '../src/main/engine/reports/persisted-tables';
import { forgetTables } from '../src/main/engine/reports/table-cache';
import { scanNativeAnalysisColumns } from '../src/main/engine/store/analysis-rows';
import { openStore } from '../src/main/engine/store/database';
import { measureDisk, printDisk, type DiskResult } from './disk';
import { benchColdOpen, type ColdOpenResult } from './cold-open';
import { benchLiveRefreshScaling, type LiveRefreshScaling } from './live-refresh';
import {
  MemorySampler,
  collectGarbage,
  now,
  round,
  rounded,
  sampleMs,
  summarize,
  type MemoryReport,
  type Summary,
} from './measure';
import { keptWorkspace } from './kept-workspace';
import { generatePaperWorkspace, type GeneratedWorkspace } from './paper-workspace';
import { benchReplay, type ReplayTiming } from './replay-timing';

/** One timed table. */
export interface TableTiming {
  name: string;
  rows: number;
  /** reportTable as the engine serves it (revision checked, table built once per revision). */
  reportMs: Summary;
  /** reportMs.median ÷ the floor's median (target ≤ 3). */
  ratioToFloor: number;
  /** Built from nothing: caches forgotten, rows read, analysed (store tables: read). */
  coldMs: Summary;
  /** The table's analysis alone, on rows already read; null for tables read from the store. */
  buildMs: Summary | null;
  samplesMs: number[];
}

/** Part (c)'s result. */
export interface PaperScaleResult {
  /** `path` is where it was generated (a temporary folder, deleted afterwards). */
  workspace: GeneratedWorkspace & { fileMb: number; bytesPerRep: number };
  /** Bytes per rep against the target, and where they are (disk.ts). */
  disk: DiskResult;
  openStoreMs: number;
  /** One plain SQLite scan of the columns the row tables need (rows stepped, not kept). */
  floorMs: Summary;
  /** The full, uncached read of the study's analysis rows. */
  studyRowsMs: Summary;
  /** Heap the 70,000 analysis rows take. */
  studyRowsHeapMb: number;
  tables: TableTiming[];
  /** Generated vs published HF % for the strong system cue, over Table 6's 20 cells. */
  table6Check: { cells: number; maxAbsDiffHfPct: number; maxAbsDiffHelpPct: number };
  samples: number;
  liveRefresh: LiveRefreshScaling;
  replay: ReplayTiming;
  /** The bench process (which also generated the workspace) while it did all of the above. */
  serving: MemoryReport;
  /** Fresh engine processes: the first table after start, and RSS while drawing every table. */
  coldOpen: ColdOpenResult;
}

function table6Check(flips: ReportTable): PaperScaleResult['table6Check'] {
  let maxHf = 0;
  let maxHelp = 0;
  let cells = 0;
  for (const cell of TABLE_6) {
    const row = flips.rows.find(
      (entry) =>
        entry.condition === 'preset:strong@system' &&
        entry.scope === 'judge-dataset' &&
        entry.judge === cell.judge.toLowerCase() &&
        entry.dataset === cell.dataset,
    );
    if (!row || typeof row.harmfulPct !== 'number' || typeof row.helpfulPct !== 'number') continue;
    cells += 1;
    maxHf = Math.max(maxHf, Math.abs(row.harmfulPct - cell.hfPct));
    maxHelp = Math.max(maxHelp, Math.abs(row.helpfulPct - cell.helpPct));
  }
  return { cells, maxAbsDiffHfPct: round(maxHf), maxAbsDiffHelpPct: round(maxHelp) };
}

/**
 * The generated workspace at `path`: generated there, or, with CUELAB_BENCH_WORKSPACES=DIR, a
 * copy of the one an earlier run generated into DIR (kept-workspace.ts).
 */
function paperWorkspace(path: string, log: (line: string) => void): GeneratedWorkspace {
  const { facts, copiedFrom } = keptWorkspace('.', path, (file) => generatePaperWorkspace(file));
  if (copiedFrom)
    log(
      `  workspace copied from ${copiedFrom} (CUELAB_BENCH_WORKSPACES), generated there earlier:`,
    );
  return { ...facts, path };
}

/** Runs part (c): generation, then the timings; the workspace is deleted afterwards. */
export async function benchPaperScale(
  log: (line: string) => void,
  samples = 3,
): Promise<PaperScaleResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-bench-c-'));
  try {
    const generated = paperWorkspace(join(dir, 'cuelab.sqlite'), log);
    log(
      `  generated ${generated.reps} reps, ${generated.toolCalls} tool calls in ` +
        `${(generated.generationMs / 1000).toFixed(1)} s (${(generated.fileBytes / 2 ** 20).toFixed(0)} MB)`,
    );
    const disk = measureDisk(generated.path, generated.reps);
    for (const line of printDisk(disk)) log(line);
    const coldOpen = await benchColdOpen(generated.path, generated.studyId, log);
    const opened = now();
    const store = openStore(generated.path);
    const openStoreMs = now() - opened;
    try {
      const { studyId } = generated;
      const memory = new MemorySampler();
      memory.begin();
      const floorSamples = await sampleMs(samples, () => scanNativeAnalysisColumns(store, studyId));
      const floor = summarize(floorSamples).median;
      log(`  floor (one plain scan of the rows' columns): median ${floor.toFixed(0)} ms`);
      const rowsSamples = await sampleMs(samples, () => readStudyRows(store, studyId));
      collectGarbage();
      const heapBefore = process.memoryUsage().heapUsed;
      const rows = readStudyRows(store, studyId);
      collectGarbage();
      const studyRowsHeapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      log(
        `  studyRows: ${rows.length} rows, median ${summarize(rowsSamples).median.toFixed(0)} ms`,
      );

      const tables: TableTiming[] = [];
      let flips: ReportTable | undefined;
      for (const name of TABLE_NAMES) {
        let table: ReportTable | undefined;
        // One cold build per table (it reads the whole study again); the served path is the target.
        const coldSamples = await sampleMs(1, () => {
          forgetStudyRows(store);
          forgetTables(store);
          forgetPersistedTables(store);
          rmSync(persistedTablesDir(store.path), { recursive: true, force: true });
          table = reportTable(store, studyId, name);
        });
        const reportSamples = await sampleMs(samples, () => {
          table = reportTable(store, studyId, name);
        });
        const definition = TABLES[name];
        // A copy, so the analysis cannot reuse pairings made for `rows` (analysis/pairs.ts).
        const buildSamples =
          'build' in definition
            ? await sampleMs(samples, () => definition.build(rows.slice()))
            : null;
        const ratioToFloor = round(summarize(reportSamples).median / floor, 4);
        if (name === 'flips') flips = table;
        tables.push({
          name,
          rows: table?.rows.length ?? 0,
          reportMs: rounded(summarize(reportSamples)),
          ratioToFloor,
          coldMs: rounded(summarize(coldSamples)),
          buildMs: buildSamples ? rounded(summarize(buildSamples)) : null,
          samplesMs: reportSamples.map((sample) => round(sample)),
        });
        const analysis = buildSamples
          ? `analysis alone ${summarize(buildSamples).median.toFixed(0)} ms`
          : 'reads its own data from the store';
        log(
          `  ${name}: ${table?.rows.length ?? 0} rows, served median ` +
            `${summarize(reportSamples).median.toFixed(1)} ms = ${ratioToFloor}× floor; cold ` +
            `${summarize(coldSamples).median.toFixed(0)} ms (${analysis})`,
        );
      }
      const liveRefresh = await benchLiveRefreshScaling(store, studyId, floor, log);
      const replay = await benchReplay(store);
      log(
        `  replay of a ${replay.toolCallsPerRun}-call pair: median ${replay.openMs.median} ms ` +
          `(target < ${replay.targetMs} ms)`,
      );
      const serving = memory.end();
      log(`  engine RSS while serving: peak ${serving.rssPeakMb} MB, end ${serving.rssEndMb} MB`);
      return {
        workspace: {
          ...generated,
          fileMb: round(generated.fileBytes / 2 ** 20),
          bytesPerRep: Math.round(generated.fileBytes / generated.reps),
        },
        disk,
        openStoreMs: round(openStoreMs),
        floorMs: rounded(summarize(floorSamples)),
        studyRowsMs: rounded(summarize(rowsSamples)),
        studyRowsHeapMb: round(studyRowsHeapMb),
        tables,
        table6Check: flips
          ? table6Check(flips)
          : { cells: 0, maxAbsDiffHfPct: Number.NaN, maxAbsDiffHelpPct: Number.NaN },
        samples,
        liveRefresh,
        replay,
        serving,
        coldOpen,
      };
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
