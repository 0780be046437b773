/**
 * Part (c), live refresh (issue 15: "after a batch of landed reps the window's tables cost
 * proportional to the batch, not the study"). The newest reps of the generated workspace are
 * taken back (their jobs queued again), the window's live tables are built once, and then the
 * reps land again in batches the way the runner stores them (a rep row and its job's `done` in
 * one transaction). After each batch the window's refresh is timed: every live table through
 * `reportTable`, rows brought up to date from the batch. Beside it: the same refresh from
 * nothing (caches forgotten), measured in the same run.
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
  batches = 5,
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
  };
  log(
    `  live refresh after ${batchReps} landed reps (${tables.length} tables): median ` +
      `${refreshMs.median.toFixed(0)} ms (rows ${rowsMs.median.toFixed(1)} ms = ` +
      `${result.rowsRatioToFloor}× floor) vs ${fullRefreshMs.median.toFixed(0)} ms from nothing ` +
      `(${result.ratioToFull}×); reads ${reads.join(', ')}; pairings ${pairings.join(', ')}`,
  );
  return result;
}
