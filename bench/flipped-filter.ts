/**
 * (f) The workbench's "flipped" filter at the paper's scale (70,560 reps, 11,163 flips): the
 * first flipped page of a study whose flip list nothing kept yet (every flip found from the
 * rows, then kept under cache/flip-lists/), and the first flipped page of an engine started
 * after that (the kept list read back; what the runner's end-of-study tables leave). Each in
 * a fresh engine over a copy of the generated workspace, through the LabApi dispatcher, with
 * the load average.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dispatchLabCall } from '../src/main/engine/api';
import { createEngine, databasePath } from '../src/main/engine/engine';
import type { LabResponse } from '../src/shared/lab-api';
import { now, round } from './measure';
import { generatePaperWorkspace } from './paper-workspace';

/** What part (f) measured. */
export interface FlippedFilterResult {
  reps: number;
  /** First flipped page with no kept flip list: every flip of the study found. */
  firstPageFindingMs: number;
  /** First flipped page of a new engine, the flip list kept. */
  firstPageKeptMs: number;
  /** The next page (offset 50) of that engine. */
  nextPageMs: number;
  rows: number;
  loadBefore: number;
  loadAfter: number;
}

async function flippedPageMs(workspace: string, offset = 0): Promise<{ ms: number; rows: number }> {
  const engine = createEngine({ path: workspace, source: 'flag' });
  try {
    const started = now();
    const page = await dispatchLabCall(engine.handlers, 'queryReps', {
      studyId: 'paper-scale',
      flipped: 'any',
      offset,
    });
    const ms = now() - started;
    if (!page.ok) throw new Error(page.error.message);
    return { ms, rows: (page.value as LabResponse<'queryReps'>).rows.length };
  } finally {
    engine.close();
  }
}

/** Runs part (f) on `workspaceFile` (a paper-scale database) or on one it generates. */
export async function benchFlippedFilter(
  log: (line: string) => void,
  workspaceFile?: string,
): Promise<FlippedFilterResult> {
  const workspace = mkdtempSync(join(tmpdir(), 'cuelab-bench-flipped-'));
  try {
    const database = databasePath(workspace);
    if (workspaceFile) copyFileSync(workspaceFile, database);
    const reps = workspaceFile ? 70_560 : generatePaperWorkspace(database).reps;
    const loadBefore = loadavg()[0] ?? 0;
    const finding = await flippedPageMs(workspace);
    const kept = await flippedPageMs(workspace);
    const engine = createEngine({ path: workspace, source: 'flag' });
    let nextPageMs: number;
    try {
      await dispatchLabCall(engine.handlers, 'queryReps', {
        studyId: 'paper-scale',
        flipped: 'any',
      });
      const started = now();
      await dispatchLabCall(engine.handlers, 'queryReps', {
        studyId: 'paper-scale',
        flipped: 'any',
        offset: 50,
      });
      nextPageMs = now() - started;
    } finally {
      engine.close();
    }
    const result: FlippedFilterResult = {
      reps,
      firstPageFindingMs: round(finding.ms),
      firstPageKeptMs: round(kept.ms),
      nextPageMs: round(nextPageMs),
      rows: kept.rows,
      loadBefore: round(loadBefore, 2),
      loadAfter: round(loadavg()[0] ?? 0, 2),
    };
    log(
      `  first flipped page, every flip found: ${result.firstPageFindingMs} ms; after a start with ` +
        `the list kept: ${result.firstPageKeptMs} ms (target < 500 ms); next page ${result.nextPageMs} ms ` +
        `(${reps} reps, load ${result.loadBefore} -> ${result.loadAfter})`,
    );
    return result;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchFlippedFilter((line) => console.log(line), process.argv[2]).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
