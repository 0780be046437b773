/**
 * The SQL behind a native study's analysis rows (reports/rows.ts maps them): one narrow read
 * of the finished jobs and their reps, optionally only the reps stored after a given judge_reps
 * rowid, so the report cache (reports/row-cache.ts) can add a batch of landed reps without
 * reading the study again. A rep and its job's `done` are written in one transaction
 * (runner/commit-rep.ts `commitRep`), and SQLite assigns rowids in commit order within a
 * database, so "rowid above the last one read" is exactly "landed since".
 */
import type { Store } from './database';
import { parseConditionBody } from './study-rows';
import type { StudyCondition } from '../../../shared/condition-keys';

/** One finished job and its rep, with the keys the report order sorts by. */
export interface NativeAnalysisRecord {
  /** judge_reps.rowid: the incremental cursor. */
  rep_rowid: number;
  /** study_items.position and study_conditions.position: the report order. */
  item_position: number;
  condition_position: number;
  item_id: string;
  dataset: string;
  judge_id: string;
  condition_key: string;
  direction: string;
  rep: number;
  gold: string | null;
  /** The meta-judge consensus for the rep's dimension (App. G noisy gold), when derived. */
  consensus_gold: string | null;
  outcome: string;
  simulated: number;
  turns: number;
  dimension: string | null;
  kind: string | null;
  verdict: string | null;
  score: number | null;
  present: number | null;
  absent: number | null;
}

/** One condition of the study, its stored body checked (the study's arm definitions). */
export interface ConditionBodyRecord {
  key: string;
  condition: StudyCondition;
}

const columns = `r.rowid AS rep_rowid, i.position AS item_position, c.position AS condition_position,
       j.item_id, i.dataset, j.judge_id, j.condition_key, j.direction, j.rep, i.gold,
       g.gold AS consensus_gold, r.outcome, r.simulated, r.turns,
       json_extract(r.condition_json, '$.dimension') AS dimension,
       json_extract(r.final_verdict_json, '$.kind') AS kind,
       json_extract(r.final_verdict_json, '$.outcome') AS verdict,
       json_extract(r.final_verdict_json, '$.score') AS score,
       json_array_length(r.final_verdict_json, '$.present') AS present,
       json_array_length(r.final_verdict_json, '$.absent') AS absent`;

const joins = `JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id
  JOIN study_conditions c ON c.study_id = j.study_id AND c.key = j.condition_key
  LEFT JOIN dimension_gold g
    ON g.study_id = j.study_id AND g.item_id = j.item_id
   AND g.dimension = json_extract(r.condition_json, '$.dimension')`;

/** The report order of rows.ts: item, judge, condition, direction, rep. */
const order = 'ORDER BY i.position, j.judge_id, c.position, j.direction, j.rep';

/**
 * Every finished rep of a native study, in report order, one at a time: a caller that maps each
 * to a smaller row never holds the whole study as records (at the paper's scale about 80 MB of
 * heap beside the rows). Nothing else may use the connection until the iteration ends.
 */
export function eachNativeAnalysisRecord(
  store: Store,
  studyId: string,
): IterableIterator<NativeAnalysisRecord> {
  return store.db
    .prepare<[string], NativeAnalysisRecord>(
      `SELECT ${columns}
         FROM jobs j JOIN judge_reps r ON r.id = j.rep_id ${joins}
        WHERE j.study_id = ? AND j.state = 'done' ${order}`,
    )
    .iterate(studyId);
}

/**
 * The finished reps stored after `afterRowid`, in report order: a rowid range on judge_reps
 * (its primary key), so the cost follows the batch, not the study.
 */
export function readNativeAnalysisRecordsSince(
  store: Store,
  studyId: string,
  afterRowid: number,
): NativeAnalysisRecord[] {
  return store.db
    .prepare<[{ afterRowid: number; studyId: string }], NativeAnalysisRecord>(
      // CROSS JOIN keeps judge_reps' rowid range the outer loop; each rep finds its job with
      // one seek on jobs_by_rep (migration 0008), and the `+` terms keep SQLite off the
      // study-wide indexes.
      `SELECT ${columns}
         FROM judge_reps r
        CROSS JOIN jobs j ON j.rep_id = r.id
         ${joins}
        WHERE r.rowid > @afterRowid AND +r.study_id = @studyId AND +j.study_id = @studyId
          AND +j.state = 'done' ${order}`,
    )
    .all({ afterRowid, studyId });
}

/**
 * How many jobs of the study are done (study_done_jobs, kept by triggers). The cache
 * compares it with what it holds, so a job that left `done` (or a rep removed) forces a full read.
 */
export function doneJobCount(store: Store, studyId: string): number {
  // Kept by triggers as jobs change state (migration 0009): one primary-key seek.
  const row = store.db
    .prepare<[string], { done: number }>('SELECT done FROM study_done_jobs WHERE study_id = ?')
    .get(studyId);
  return row?.done ?? 0;
}

/**
 * The study's newest rep rowid (0 with none): the end of the judge_reps_by_study index range,
 * so it costs a seek. With doneJobCount it tells "nothing landed" from "a job was reset and
 * another landed", which a count alone cannot.
 */
export function latestRepRowid(store: Store, studyId: string): number {
  const row = store.db
    .prepare<[string], { latest: number | null }>(
      'SELECT max(rowid) AS latest FROM judge_reps WHERE study_id = ?',
    )
    .get(studyId);
  return row?.latest ?? 0;
}

/**
 * Everything a native study's analysis rows depend on, as one stamp: the study's creation (a
 * study deleted and made again under its id reuses rowids), its done jobs, its newest rep and
 * its derived gold. Persisted report tables (reports/persisted-tables.ts) are keyed by it.
 */
export function nativeRowsStamp(store: Store, studyId: string): string {
  const row = store.db
    .prepare<[string], { created: string }>(
      'SELECT created_at AS created FROM studies WHERE id = ?',
    )
    .get(studyId);
  return [
    row?.created ?? '',
    doneJobCount(store, studyId),
    latestRepRowid(store, studyId),
    writeRevision(store, `rows:${studyId}`),
    dimensionGoldStamp(store, studyId),
  ].join('\u0000');
}

/**
 * A write counter kept by triggers (migration 0012): `labels`, or `rows:`, `gold:` or
 * `majorities:` and a study id. It moves on every write, however close in time.
 */
function writeRevision(store: Store, scope: string): number {
  const row = store.db
    .prepare<[string], { revision: number }>('SELECT revision FROM write_revisions WHERE scope = ?')
    .get(scope);
  return row?.revision ?? 0;
}

/**
 * nativeRowsStamp plus what the label and agreement tables also read: the mechanism labels
 * (count, newest rowid and time over the whole table, so a replaced label moves it too) and the
 * study's fixed majorities (a majority can be fixed by a job failing, with no rep landing) and
 * its spec.
 * Scans the labels' smallest index; asked only when a table is not held in memory.
 */
export function labelTablesStamp(store: Store, studyId: string): string {
  const labels = store.db
    .prepare<[], { n: number; latest: number | null; at: string | null }>(
      'SELECT count(*) AS n, max(rowid) AS latest, max(created_at) AS at FROM mechanism_labels',
    )
    .get();
  // The spec too: the graded table's threshold is read from it.
  const study = store.db
    .prepare<[{ studyId: string }], { n: number; spec: string | null }>(
      `SELECT (SELECT count(*) FROM study_majorities WHERE study_id = @studyId) AS n,
              (SELECT spec_json FROM studies WHERE id = @studyId) AS spec`,
    )
    .get({ studyId });
  return [
    nativeRowsStamp(store, studyId),
    labels?.n ?? 0,
    labels?.latest ?? 0,
    labels?.at ?? '',
    writeRevision(store, 'labels'),
    writeRevision(store, `majorities:${studyId}`),
    study?.n ?? 0,
    study?.spec ?? '',
  ].join('\u0000');
}

/** How many imported reps the study holds (an imported study changes only by re-import). */
export function importedRepCount(store: Store, studyId: string): number {
  const row = store.db
    .prepare<[string], { n: number }>('SELECT count(*) AS n FROM imported_reps WHERE study_id = ?')
    .get(studyId);
  return row?.n ?? 0;
}

/** The study's condition bodies, by key. */
export function readConditionBodies(store: Store, studyId: string): ConditionBodyRecord[] {
  return store.db
    .prepare<[string], { key: string; body_json: string }>(
      'SELECT key, body_json FROM study_conditions WHERE study_id = ?',
    )
    .all(studyId)
    .map((row) => ({
      key: row.key,
      condition: parseConditionBody(studyId, row.key, row.body_json),
    }));
}

/**
 * The floor the bench compares report tables with: one plain scan of the same columns, rows
 * stepped through as arrays and dropped (no objects, no mapping). Returns the row count.
 */
export function scanNativeAnalysisColumns(store: Store, studyId: string): number {
  const statement = store.db
    .prepare(
      `SELECT ${columns}
         FROM jobs j JOIN judge_reps r ON r.id = j.rep_id ${joins}
        WHERE j.study_id = ? AND j.state = 'done'`,
    )
    .raw(true);
  let count = 0;
  for (const _row of statement.iterate(studyId)) count += 1;
  return count;
}

/**
 * A stamp of the study's derived dimension gold (metajudge/consensus): it changes whenever
 * `cuelab classify --voters` adds or replaces gold, which changes rows no rep landing shows.
 */
export function dimensionGoldStamp(store: Store, studyId: string): string {
  const row = store.db
    .prepare<[string], { n: number; latest: string | null }>(
      'SELECT count(*) AS n, max(created_at) AS latest FROM dimension_gold WHERE study_id = ?',
    )
    .get(studyId);
  return `${row?.n ?? 0}:${row?.latest ?? ''}:${writeRevision(store, `gold:${studyId}`)}`;
}
