/**
 * A JSON value damaged in one study's rows is that study's damage, not the workspace's: the
 * open check (workspace-check.ts) sets it aside here, so the study list still lists every study
 * and marks the damaged one with the reason, and the damaged study's own progress names it.
 * Damage in rows no study owns (suites, providers' settings) still refuses the workspace.
 */
import type Database from 'better-sqlite3';
import { EngineError } from '../errors';
import type { Store } from './database';
import type { ColumnPlace } from './json-column';

/** Per open database: study id to the first damage found in its rows. */
const damaged = new WeakMap<Database.Database, Map<string, string>>();

/** Damaged values looked for per column: enough to attribute, not a second full copy. */
const perColumn = 100;

interface JsonTable {
  table: string;
  key: string[];
  columns: string[];
  names: Set<string>;
}

function jsonTables(db: Database.Database): JsonTable[] {
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .pluck()
    .all() as string[];
  return tables.flatMap((table) => {
    const info = db.prepare(`PRAGMA table_info("${table}")`).all() as {
      name: string;
      pk: number;
    }[];
    const columns = info.filter((column) => column.name.endsWith('_json')).map((c) => c.name);
    if (columns.length === 0) return [];
    const key = info
      .filter((column) => column.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((column) => column.name);
    return [
      {
        table,
        key: key.length ? key : ['rowid'],
        columns,
        names: new Set(info.map((c) => c.name)),
      },
    ];
  });
}

/** The SQL naming the study a row of `table` belongs to, or undefined when none does. */
function studyOf({ table, names }: JsonTable): string | undefined {
  if (table === 'studies') return 'id';
  if (names.has('study_id')) return 'study_id';
  if (names.has('rep_id')) return '(SELECT r.study_id FROM judge_reps r WHERE r.id = rep_id)';
  return undefined;
}

/**
 * Finds the values of `*_json` columns that are not JSON; those in a study's rows are kept as
 * that study's damage. Returns the first damaged place no study owns, if any.
 */
export function setAsideStudyDamage(db: Database.Database): ColumnPlace | undefined {
  const studies = new Map<string, string>();
  damaged.set(db, studies);
  for (const spec of jsonTables(db)) {
    const owner = studyOf(spec);
    const keyList = spec.key.map((name) => `"${name}"`).join(" || '/' || ");
    for (const column of spec.columns) {
      // A text moved to a blob (store/text-blobs.ts) leaves its column '': not a damaged value.
      const inBlob = spec.names.has(`${column}_blob`) ? ` AND "${column}_blob" IS NULL` : '';
      const rows = db
        .prepare(
          `SELECT ${keyList} AS place, ${owner ?? 'NULL'} AS study FROM "${spec.table}"
            WHERE "${column}" IS NOT NULL${inBlob} AND json_valid("${column}") = 0 LIMIT ${perColumn}`,
        )
        .all() as { place: unknown; study: unknown }[];
      for (const row of rows) {
        const place = { table: spec.table, row: String(row.place), field: column };
        if (typeof row.study !== 'string') return place;
        if (!studies.has(row.study)) {
          studies.set(row.study, `${place.table} row ${place.row}: ${place.field}: not valid JSON`);
        }
      }
    }
  }
  return undefined;
}

/** Why study `studyId`'s rows are damaged, as the open check found it, or undefined. */
export function damageOfStudy(store: Store, studyId: string): string | undefined {
  return damaged.get(store.db)?.get(studyId);
}

/** Throws store_unreadable naming the damage when the open check found some in the study. */
export function refuseDamagedStudy(store: Store, studyId: string): void {
  const damage = damageOfStudy(store, studyId);
  if (damage === undefined) return;
  throw new EngineError(
    'store_unreadable',
    `Study ${studyId} is damaged: ${damage}. Restore the workspace from a backup, or delete that row; the workspace's other studies are unaffected.`,
  );
}
