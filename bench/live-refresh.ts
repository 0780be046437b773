/**
 * Part (c), live refresh ("after a batch of landed reps the window's tables cost
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

/** One study's samples while the batches land. */
interface StudyRun {
  readonly studyId: string;
  readonly taken: { jobId: number; repId: string }[];
  readonly full: number[];
  readonly rows: number[];
  readonly refresh: number[];
  readonly reads: string[];
  readonly pairings: string[];
  readonly tallies: string[];
}

function timing(
  store: Store,
  run: StudyRun,
  tables: readonly TableName[],
  floorMs: number,
  batchReps: number,
  batches: number,
): LiveRefreshTiming {
  const refreshMs = summarize(run.refresh);
  const fullRefreshMs = summarize(run.full);
  const rowsMs = summarize(run.rows);
  return {
    batchReps,
    batches,
    tables: [...tables],
    rowsMs: rounded(rowsMs),
    refreshMs: rounded(refreshMs),
    fullRefreshMs: rounded(fullRefreshMs),
    ratioToFull: round(refreshMs.median / fullRefreshMs.median, 3),
    rowsRatioToFloor: round(rowsMs.median / floorMs, 3),
    reads: run.reads,
    pairings: run.pairings,
    tallies: run.tallies,
    studyReps: studyReps(store, run.studyId),
  };
}

/**
 * Times the live refresh of each study: from nothing (every cache forgotten), then after each
 * batch of landed reps. The studies take turns batch by batch, so both see the machine as it
 * is at that moment (the copies replace the taken reps).
 */
async function benchLiveRefresh(
  store: Store,
  studyIds: readonly string[],
  floorMs: number,
  log: (line: string) => void,
  batchReps: number,
  batches: number,
): Promise<LiveRefreshTiming[]> {
  const tables = liveTables();
  const land = lander(store);
  const runs: StudyRun[] = studyIds.map((studyId) => ({
    studyId,
    taken: takeBack(store, studyId, batchReps * batches),
    full: [],
    rows: [],
    refresh: [],
    reads: [],
    pairings: [],
    tallies: [],
  }));
  for (const run of runs)
    for (let sample = 0; sample < 2; sample += 1) {
      forgetStudyRows(store);
      forgetTables(store);
      const started = now();
      refresh(store, run.studyId, tables);
      run.full.push(now() - started);
    }
  // The window has every study's tables open before the batches land.
  for (const run of runs) refresh(store, run.studyId, tables);
  for (let batch = 0; batch < batches; batch += 1)
    for (const run of runs) {
      land(run.taken.slice(batch * batchReps, (batch + 1) * batchReps));
      const started = now();
      studyRows(store, run.studyId);
      run.rows.push(now() - started);
      const read = lastRowCacheRead();
      run.reads.push(`${read.kind}:${read.repsRead}`);
      refresh(store, run.studyId, tables);
      run.refresh.push(now() - started);
      run.pairings.push(lastPairingUpdate());
      run.tallies.push(lastTallyUpdate('flips') ?? 'none');
      await new Promise((resolve) => setImmediate(resolve));
    }
  return runs.map((run) => {
    const result = timing(store, run, tables, floorMs, batchReps, batches);
    log(
      `  live refresh after ${batchReps} landed reps (${tables.length} tables) on ` +
        `${result.studyReps} reps: median ${result.refreshMs.median.toFixed(1)} ms (rows ` +
        `${result.rowsMs.median.toFixed(1)} ms) vs ${result.fullRefreshMs.median.toFixed(0)} ms ` +
        `from nothing; reads ${tally(run.reads)}; pairings ${[...new Set(run.pairings)].join('/')}; ` +
        `flip counts ${[...new Set(run.tallies)].join('/')}`,
    );
    return result;
  });
}

/** `a ×3, b ×1`: how often each value came up, in first-appearance order. */
function tally(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${value} ×${count}`).join(', ');
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
 * The live refresh on the full study and on a tenth of it (copyTenth), batch by batch in turn,
 * and the ratio of their medians.
 */
export async function benchLiveRefreshScaling(
  store: Store,
  studyId: string,
  floorMs: number,
  log: (line: string) => void,
  batchReps = 32,
  batches = 15,
): Promise<LiveRefreshScaling> {
  const tenthId = copyTenth(store, studyId);
  const [tenth, full] = await benchLiveRefresh(
    store,
    [tenthId, studyId],
    floorMs,
    log,
    batchReps,
    batches,
  );
  if (!tenth || !full) throw new Error('the live refresh timed no study');
  const targetRatio = 1.5;
  const ratio = round(full.refreshMs.median / tenth.refreshMs.median, 2);
  log(
    `  live refresh per batch: ${full.refreshMs.median.toFixed(1)} ms at ${full.studyReps} reps vs ` +
      `${tenth.refreshMs.median.toFixed(1)} ms at ${tenth.studyReps} (${ratio}×; target ≤ ${targetRatio}×)`,
  );
  return { full, tenth, ratio, targetRatio };
}
