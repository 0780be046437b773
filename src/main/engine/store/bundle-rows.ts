/**
 * Study bundles as rows (export/bundle-format.ts): every table's rows of one study read as
 * they are stored, and a bundle's rows written back column by column. A bundle is a
 * stranger's file, so its columns are checked against the table's own before any insert and
 * table names only ever come from this file's list, never from the bundle.
 */
import { EngineError } from '../errors';
import type { Store } from './database';
import { logicalRepRow, REP_ROWS_SQL } from './text-blobs';

/**
 * One stored row, column name to value, as a bundle carries it. The bundle tables hold TEXT,
 * INTEGER and REAL columns only (no BLOBs), so these are the only values a row can have.
 */
export type StoredRow = Record<string, string | number | null>;

const REPS = 'SELECT id FROM judge_reps WHERE study_id = @study';
const JOBS = 'SELECT id FROM jobs WHERE study_id = @study';

/** The query selecting each bundle table's rows of one study (`@study`, `@suite`). */
const BUNDLE_QUERIES = {
  suites: 'SELECT * FROM suites WHERE id = @suite',
  suiteItems: `SELECT * FROM suite_items WHERE suite_id = @suite
    AND item_id IN (SELECT item_id FROM study_items WHERE study_id = @study) ORDER BY item_id`,
  suiteTaxonomies: 'SELECT * FROM suite_taxonomies WHERE suite_id = @suite ORDER BY taxonomy_id',
  studies: 'SELECT * FROM studies WHERE id = @study',
  studyItems: 'SELECT * FROM study_items WHERE study_id = @study ORDER BY position',
  studyConditions: 'SELECT * FROM study_conditions WHERE study_id = @study ORDER BY position',
  studyMajorities:
    'SELECT * FROM study_majorities WHERE study_id = @study ORDER BY item_id, judge_id',
  // The rep rows as they were before compacting (store/text-blobs.ts), so a bundle carries texts.
  reps: `${REP_ROWS_SQL} WHERE r.study_id = @study ORDER BY r.created_at, r.id`,
  messages: `SELECT * FROM judge_messages WHERE rep_id IN (${REPS}) ORDER BY rep_id, seq`,
  turns: `SELECT * FROM judge_turns WHERE rep_id IN (${REPS}) ORDER BY rep_id, turn`,
  toolCalls: `SELECT * FROM judge_tool_calls WHERE rep_id IN (${REPS}) ORDER BY rep_id, seq`,
  jobs: 'SELECT * FROM jobs WHERE study_id = @study ORDER BY id',
  providerCalls: `SELECT * FROM provider_calls WHERE job_id IN (${JOBS}) ORDER BY job_id, seq`,
  importedReps: 'SELECT * FROM imported_reps WHERE study_id = @study ORDER BY line',
  annotators: `SELECT * FROM annotators WHERE 'human:' || name IN
    (SELECT source FROM mechanism_labels WHERE rep_id IN (${REPS})) ORDER BY name`,
  labels: `SELECT * FROM mechanism_labels WHERE rep_id IN (${REPS}) ORDER BY rep_id, source`,
  webRecordings: `SELECT * FROM judge_rep_web WHERE rep_id IN (${REPS}) ORDER BY rep_id`,
  dimensionGold: 'SELECT * FROM dimension_gold WHERE study_id = @study ORDER BY item_id, dimension',
} as const;

/** A bundle's table, by its key in the bundle (`tables.reps` is `judge_reps`). */
export type BundleTableName = keyof typeof BUNDLE_QUERIES;

/** Every bundle table's rows of one study; suite tables are `suiteId`'s (none when null). */
export function readBundleTables(
  store: Store,
  studyId: string,
  suiteId: string | null,
): Record<BundleTableName, StoredRow[]> {
  const params = { study: studyId, suite: suiteId ?? '' };
  const tables = {} as Record<BundleTableName, StoredRow[]>;
  for (const key of Object.keys(BUNDLE_QUERIES) as BundleTableName[])
    tables[key] = store.db.prepare(BUNDLE_QUERIES[key]).all(params) as StoredRow[];
  tables.reps = tables.reps.map((row) => logicalRepRow(row) as StoredRow);
  return tables;
}

/**
 * One bundle table's rows of one study, read one at a time from SQLite as the caller asks
 * (a study may hold millions of rows: the export streams them, export/bundle-stream.ts).
 */
export function* iterateBundleRows(
  store: Store,
  studyId: string,
  suiteId: string | null,
  key: BundleTableName,
): Generator<StoredRow> {
  const params = { study: studyId, suite: suiteId ?? '' };
  const rows = store.db.prepare(BUNDLE_QUERIES[key]).iterate(params) as IterableIterator<StoredRow>;
  for (const row of rows) yield key === 'reps' ? (logicalRepRow(row) as StoredRow) : row;
}

/**
 * How many rows the bundle tables hold for one study, all together, counted without reading
 * them and at most `cap` (counting stops there: a study past a limit is known at once).
 */
export function countBundleRows(
  store: Store,
  studyId: string,
  suiteId: string | null,
  cap = Number.MAX_SAFE_INTEGER,
): number {
  const params = { study: studyId, suite: suiteId ?? '' };
  let total = 0;
  for (const key of Object.keys(BUNDLE_QUERIES) as BundleTableName[]) {
    if (total >= cap) break;
    // The trailing ORDER BY only costs a sort; the texts the reps query resolves are not read.
    const query = BUNDLE_QUERIES[key].replace(/\s+ORDER BY [\w\s,.]+$/, '');
    total += Number(
      store.db
        .prepare(`SELECT COUNT(*) FROM (${query} LIMIT @left)`)
        .pluck()
        .get({ ...params, left: cap - total }) ?? 0,
    );
  }
  return Math.min(total, cap);
}

/** The workspace tables a bundle may write (its table names come only from here). */
const WRITABLE_TABLES = new Set([
  'suites',
  'suite_items',
  'suite_taxonomies',
  'studies',
  'study_items',
  'study_conditions',
  'study_majorities',
  'judge_reps',
  'judge_messages',
  'judge_turns',
  'judge_tool_calls',
  'judge_rep_web',
  'dimension_gold',
  'jobs',
  'provider_calls',
  'imported_reps',
  'mechanism_labels',
]);

function columnsOf(store: Store, table: string): Set<string> {
  const rows = store.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
  return new Set(rows.map((row) => row.name));
}

/**
 * Inserts a bundle's rows into `table`, refusing a column the table does not have; returns
 * their rowids. `skip` names columns left for the database to assign (jobs' ids).
 */
export function insertBundleRows(
  store: Store,
  table: string,
  rows: readonly StoredRow[],
  skip: readonly string[] = [],
): number[] {
  if (!WRITABLE_TABLES.has(table))
    throw new EngineError('internal', `A bundle may not write table "${table}".`);
  const known = columnsOf(store, table);
  return rows.map((row) => {
    const columns = Object.keys(row).filter((column) => !skip.includes(column));
    const unknown = columns.find((column) => !known.has(column));
    if (unknown)
      throw new EngineError(
        'bad_request',
        `The bundle's ${table} rows have a column "${unknown}" this workspace does not know.`,
      );
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    const result = store.db.prepare(sql).run(...columns.map((column) => row[column] ?? null));
    return Number(result.lastInsertRowid);
  });
}

/** Adds annotators by name, keeping any the workspace already has. */
export function insertAnnotators(store: Store, annotators: readonly StoredRow[]): void {
  const insert = store.db.prepare(
    'INSERT INTO annotators (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
  );
  for (const row of annotators) insert.run(row.name ?? null, row.created_at ?? null);
}

/** A stored suite with its items and taxonomies, as rows; undefined when there is none. */
export interface StoredSuiteRows {
  suite: StoredRow;
  items: StoredRow[];
  taxonomies: StoredRow[];
}

/** The rows of suite `suiteId` (what a bundle's suite is compared with). */
export function readSuiteRows(store: Store, suiteId: string): StoredSuiteRows | undefined {
  const suite = store.db.prepare('SELECT * FROM suites WHERE id = ?').get(suiteId) as
    StoredRow | undefined;
  if (!suite) return undefined;
  return {
    suite,
    items: store.db
      .prepare('SELECT * FROM suite_items WHERE suite_id = ?')
      .all(suiteId) as StoredRow[],
    taxonomies: store.db
      .prepare('SELECT * FROM suite_taxonomies WHERE suite_id = ?')
      .all(suiteId) as StoredRow[],
  };
}

/** The name of a study; undefined when there is no such study. */
export function studyName(store: Store, studyId: string): string | undefined {
  const name = store.db.prepare('SELECT name FROM studies WHERE id = ?').pluck().get(studyId);
  return typeof name === 'string' ? name : undefined;
}

/** True when a rep with this id is stored (under any study). */
export function repExists(store: Store, repId: unknown): boolean {
  return store.db.prepare('SELECT 1 FROM judge_reps WHERE id = ?').get(repId) !== undefined;
}
