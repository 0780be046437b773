/**
 * Part (c), timing: generate the paper-scale workspace, reopen it as the app would, and time
 * `studyRows` and every report table (`reportTable`, i.e. rows + analysis; and the analysis
 * alone on rows already read), median of 3. A check compares the generated flips table with
 * Table 6, so the timed data is known to look like the paper's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TABLE_6 } from '../src/main/engine/paper/numbers';
import {
  TABLE_NAMES,
  TABLES,
  reportTable,
  studyRows,
  type ReportTable,
} from '../src/main/engine/reports';
import { openStore } from '../src/main/engine/store/database';
import { collectGarbage, now, round, rounded, summarize, type Summary } from './measure';
import { generatePaperWorkspace, type GeneratedWorkspace } from './paper-workspace';

/** One timed table. */
export interface TableTiming {
  name: string;
  rows: number;
  /** reportTable: read the study's rows, then build the table. */
  reportMs: Summary;
  /** The table's analysis alone, on rows already read; null for tables read from the store. */
  buildMs: Summary | null;
  samplesMs: number[];
}

/** Part (c)'s result. */
export interface PaperScaleResult {
  /** `path` is where it was generated (a temporary folder, deleted afterwards). */
  workspace: GeneratedWorkspace & { fileMb: number; bytesPerRep: number };
  openStoreMs: number;
  studyRowsMs: Summary;
  /** Heap the 70,000 analysis rows take. */
  studyRowsHeapMb: number;
  tables: TableTiming[];
  /** Generated vs published HF % for the strong system cue, over Table 6's 20 cells. */
  table6Check: { cells: number; maxAbsDiffHfPct: number; maxAbsDiffHelpPct: number };
  samples: number;
}

async function sampleMs(times: number, work: () => unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < times; run += 1) {
    const started = now();
    work();
    samples.push(now() - started);
    // Let timers and I/O run between samples, as the app would between requests.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return samples;
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

/** Runs part (c): generation, then the timings; the workspace is deleted afterwards. */
export async function benchPaperScale(
  log: (line: string) => void,
  samples = 3,
): Promise<PaperScaleResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-bench-c-'));
  try {
    const generated = generatePaperWorkspace(join(dir, 'cuelab.sqlite'));
    log(
      `  generated ${generated.reps} reps, ${generated.toolCalls} tool calls in ` +
        `${(generated.generationMs / 1000).toFixed(1)} s (${(generated.fileBytes / 2 ** 20).toFixed(0)} MB)`,
    );
    const opened = now();
    const store = openStore(generated.path);
    const openStoreMs = now() - opened;
    try {
      const { studyId } = generated;
      const rowsSamples = await sampleMs(samples, () => studyRows(store, studyId));
      collectGarbage();
      const heapBefore = process.memoryUsage().heapUsed;
      const rows = studyRows(store, studyId);
      collectGarbage();
      const studyRowsHeapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      log(
        `  studyRows: ${rows.length} rows, median ${summarize(rowsSamples).median.toFixed(0)} ms`,
      );

      const tables: TableTiming[] = [];
      let flips: ReportTable | undefined;
      for (const name of TABLE_NAMES) {
        let table: ReportTable | undefined;
        const reportSamples = await sampleMs(samples, () => {
          table = reportTable(store, studyId, name);
        });
        const definition = TABLES[name];
        const buildSamples =
          'build' in definition ? await sampleMs(samples, () => definition.build(rows)) : null;
        if (name === 'flips') flips = table;
        tables.push({
          name,
          rows: table?.rows.length ?? 0,
          reportMs: rounded(summarize(reportSamples)),
          buildMs: buildSamples ? rounded(summarize(buildSamples)) : null,
          samplesMs: reportSamples.map((sample) => round(sample)),
        });
        const analysis = buildSamples
          ? `analysis alone ${summarize(buildSamples).median.toFixed(0)} ms`
          : 'reads its own data from the store';
        log(
          `  ${name}: ${table?.rows.length ?? 0} rows, median ` +
            `${summarize(reportSamples).median.toFixed(0)} ms (${analysis})`,
        );
      }
      return {
        workspace: {
          ...generated,
          fileMb: round(generated.fileBytes / 2 ** 20),
          bytesPerRep: Math.round(generated.fileBytes / generated.reps),
        },
        openStoreMs: round(openStoreMs),
        studyRowsMs: rounded(summarize(rowsSamples)),
        studyRowsHeapMb: round(studyRowsHeapMb),
        tables,
        table6Check: flips
          ? table6Check(flips)
          : { cells: 0, maxAbsDiffHfPct: Number.NaN, maxAbsDiffHelpPct: Number.NaN },
        samples,
      };
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
