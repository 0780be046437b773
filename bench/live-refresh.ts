/**
 * Part (c), live refresh (issue 15: "after a batch of landed reps the window's tables cost
 * proportional to the batch, not the study"). The newest reps of the generated workspace are
 * taken back (their jobs queued again), the window's live tables are built once, and then the
 * reps land again in batches the way the runner stores them (a rep row and its job's `done` in
 * one transaction). After each batch the window's refresh is timed: every live table through
 * `reportTable`, rows brought up to date from the batch. Beside it: the same refresh from
 * nothing (caches forgotten), measured in the same run.
 *
 * Proportional to the batch, not the study, is measured as such: the same timing on a copy of
 * the study with a tenth of its items (every judge, condition and dataset still there, so the
 * tables have the same rows), in the same workspace and run. A refresh whose cost followed the
 * study would take about ten times as long on the full one; one that follows the batch, the same.
 */
import { randomUUID } from 'node:crypto';
import {
  forgetStudyRows,
  lastRowCacheRead,
  reportTable,
  studyRows,
} from '../src/main/engine/reports';
import { forgetTables } from '../src/main/engine/reports/table-cache';
import { isTableName } from '../src/main/engine/reports/tables';
import type { TableName } from '../src/main/engine/analysis/table-model';
import { lastPairingUpdate } from '../src/main/engine/analysis/pair-index';
import { lastTallyUpdate } from '../src/main/engine/analysis/scoped-tally';
import type { Store } from '../src/main/engine/store/database';
import { liveResultTableNames } from '../src/renderer/charts/table-values';
import { now, round, rounded, summarize, type Summary } from './measure';

/** The live refresh timing. */
export interface LiveRefreshTiming {
  batchReps: number;
  batches: number;
  tables: string[];
  /** Per batch: the rows brought up to date (reads only the batch). */
  rowsMs: Summary;
  /** Per batch: the whole refresh (rows, then every live table). */
  refreshMs: Summary;
  /** The same refresh with every cache forgotten (reads and analyses the whole study). */
  fullRefreshMs: Summary;
  /** refreshMs.median ÷ fullRefreshMs.median. */
  ratioToFull: number;
  /** rowsMs.median ÷ the floor (one plain scan of the study). */
  rowsRatioToFloor: number;
  /** How the row cache answered each batch (every one should be incremental). */
  reads: string[];
  /** How each batch's pairing was made (analysis/pair-index.ts; incremental = batch items only). */
  pairings: string[];
  /** How each batch's flip counts were made (analysis/scoped-tally.ts; carried = batch only). */
  tallies: string[];
  /** Reps of the study the batches landed in. */
  studyReps: number;
}

/** The refresh on the full study beside the same refresh on a tenth of it. */
export interface LiveRefreshScaling {
  full: LiveRefreshTiming;
  tenth: LiveRefreshTiming;
  /** full.refreshMs.median ÷ tenth.refreshMs.median (the target: ≤ 1.5; following the study: ≈ 10). */
  ratio: number;
  targetRatio: number;
}

function liveTables(): readonly TableName[] {
  return liveResultTableNames.filter((name: string) => isTableName(name));
}

/** Takes the newest `count` reps back: their jobs queued again, the rep rows kept to copy. */
function takeBack(
  store: Store,
  studyId: string,
  count: number,
): { jobId: number; repId: string }[] {
  const taken = store.db
    .prepare<[string, number], { jobId: number; repId: string }>(
      `SELECT j.id AS jobId, r.id AS repId FROM judge_reps r JOIN jobs j ON j.rep_id = r.id
        WHERE r.study_id = ? ORDER BY r.rowid DESC LIMIT ?`,
    )
    .all(studyId, count)
    .reverse();
  const queue = store.db.prepare<[number]>(
    `UPDATE jobs SET state = 'queued', rep_id = NULL WHERE id = ?`,
  );
  store.db.transaction(() => taken.forEach((row) => queue.run(row.jobId)))();
  return taken;
}

/** Lands copies of the given reps as the runner does: the rep and its job's `done` together. */
function lander(store: Store) {
  const columns = store.db
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('judge_reps')`)
    .all()
    .map((column) => column.name)
    .filter((name) => name !== 'id');
  const copy = store.db.prepare<[string, string]>(
    `INSERT INTO judge_reps (id, ${columns.join(', ')})
     SELECT ?, ${columns.join(', ')} FROM judge_reps WHERE id = ?`,
  );
  const done = store.db.prepare<[string, number]>(
    `UPDATE jobs SET state = 'done', rep_id = ? WHERE id = ?`,
  );
  return (batch: readonly { jobId: number; repId: string }[]) =>
    store.db.transaction(() => {
      for (const row of batch) {
        const id = randomUUID();
        copy.run(id, row.repId);
        done.run(id, row.jobId);
      }
    })();
}

function refresh(store: Store, studyId: string, tables: readonly TableName[]): void {
  for (const name of tables) reportTable(store, studyId, name);
}

/** Runs the live-refresh timing on the generated workspace (the copies replace the taken reps). */
export async function benchLiveRefresh(
  store: Store,
  studyId: string,
  floorMs: number,
  log: (line: string) => void,
  batchReps = 32,
  batches = 9,
): Promise<LiveRefreshTiming> {
  const tables = liveTables();
  const taken = takeBack(store, studyId, batchReps * batches);
  const land = lander(store);
  const fullSamples: number[] = [];
  for (let run = 0; run < 2; run += 1) {
    forgetStudyRows(store);
    forgetTables(store);
    const started = now();
    refresh(store, studyId, tables);
    fullSamples.push(now() - started);
  }
  const rowsSamples: number[] = [];
  const refreshSamples: number[] = [];
  const reads: string[] = [];
  const pairings: string[] = [];
  const tallies: string[] = [];
  for (let batch = 0; batch < batches; batch += 1) {
    land(taken.slice(batch * batchReps, (batch + 1) * batchReps));
    const started = now();
    studyRows(store, studyId);
    rowsSamples.push(now() - started);
    const read = lastRowCacheRead();
    reads.push(`${read.kind}:${read.repsRead}`);
    refresh(store, studyId, tables);
    refreshSamples.push(now() - started);
    pairings.push(lastPairingUpdate());
    tallies.push(lastTallyUpdate('flips') ?? 'none');
    await new Promise((resolve) => setImmediate(resolve));
  }
  const refreshMs = summarize(refreshSamples);
  const fullRefreshMs = summarize(fullSamples);
  const rowsMs = summarize(rowsSamples);
  const result: LiveRefreshTiming = {
    batchReps,
    batches,
    tables: [...tables],
    rowsMs: rounded(rowsMs),
    refreshMs: rounded(refreshMs),
    fullRefreshMs: rounded(fullRefreshMs),
    ratioToFull: round(refreshMs.median / fullRefreshMs.median, 3),
    rowsRatioToFloor: round(rowsMs.median / floorMs, 3),
    reads,
    pairings,
    tallies,
    studyReps: studyReps(store, studyId),
  };
  log(
    `  live refresh after ${batchReps} landed reps (${tables.length} tables): median ` +
      `${refreshMs.median.toFixed(0)} ms (rows ${rowsMs.median.toFixed(1)} ms = ` +
      `${result.rowsRatioToFloor}× floor) vs ${fullRefreshMs.median.toFixed(0)} ms from nothing ` +
      `(${result.ratioToFull}×) on ${result.studyReps} reps; reads ${reads.join(', ')}; ` +
      `pairings ${pairings.join(', ')}; flip counts ${tallies.join(', ')}`,
  );
  return result;
}

function studyReps(store: Store, studyId: string): number {
  return (
    store.db
      .prepare<[string], { n: number }>(
        `SELECT count(*) AS n FROM jobs WHERE study_id = ? AND state = 'done'`,
      )
      .get(studyId)?.n ?? 0
  );
}

/** The columns of `table` other than `skip`, for copying rows with some fields replaced. */
function columnsOf(store: Store, table: string, skip: readonly string[]): string[] {
  return store.db
    .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)')
    .all(table)
    .map((column) => column.name)
    .filter((name) => !skip.includes(name));
}

/**
 * Copies the study under a new id with every tenth of its items (by position, so every dataset
 * keeps a tenth of its items): its conditions, items, reps (not their tool calls: no table reads
 * them) and jobs.
 */
export function copyTenth(store: Store, studyId: string): string {
  const copy = `${studyId}-tenth`;
  const copyRows = (table: string, skip: string[], values: string, where: string) => {
    const columns = columnsOf(store, table, skip);
    store.db
      .prepare(
        `INSERT INTO ${table} (${[...skip, ...columns].join(', ')})
         SELECT ${values}, ${columns.join(', ')} FROM ${table} WHERE ${where}`,
      )
      .run({ studyId, copy });
  };
  const inTenth = `item_id IN (SELECT item_id FROM study_items WHERE study_id = @studyId AND position % 10 = 0)`;
  store.db.transaction(() => {
    copyRows('studies', ['id', 'name'], `@copy, name || ' (a tenth)'`, 'id = @studyId');
    copyRows('study_conditions', ['study_id'], '@copy', 'study_id = @studyId');
    copyRows('study_items', ['study_id'], '@copy', `study_id = @studyId AND position % 10 = 0`);
    copyRows(
      'judge_reps',
      ['id', 'study_id'],
      `id || '-tenth', @copy`,
      `study_id = @studyId AND ${inTenth}`,
    );
    copyRows(
      'jobs',
      ['id', 'study_id', 'rep_id'],
      `NULL, @copy, CASE WHEN rep_id IS NULL THEN NULL ELSE rep_id || '-tenth' END`,
      `study_id = @studyId AND ${inTenth}`,
    );
  })();
  return copy;
}

/**
 * The live refresh on the full study and on a tenth of it (copyTenth), and their ratio. The
 * tenth goes first, so any warming up favours the full study's figure no more than its own.
 */
export async function benchLiveRefreshScaling(
  store: Store,
  studyId: string,
  floorMs: number,
  log: (line: string) => void,
): Promise<LiveRefreshScaling> {
  const tenthId = copyTenth(store, studyId);
  const tenth = await benchLiveRefresh(store, tenthId, floorMs, log);
  const full = await benchLiveRefresh(store, studyId, floorMs, log);
  const targetRatio = 1.5;
  const ratio = round(full.refreshMs.median / tenth.refreshMs.median, 2);
  log(
    `  live refresh per batch: ${full.refreshMs.median.toFixed(1)} ms at ${full.studyReps} reps vs ` +
      `${tenth.refreshMs.median.toFixed(1)} ms at ${tenth.studyReps} (${ratio}×; target ≤ ${targetRatio}×)`,
  );
  return { full, tenth, ratio, targetRatio };
}
