/**
 * Damage SQLite itself meets while reading, turned into the `store_unreadable` error the rest
 * of the store gives (json-column.ts): a JSON column SQL reads with `json_extract` fails the
 * whole query with a bare "malformed JSON", and a damaged page with "database disk image is
 * malformed". Neither says where; this finds the first bad JSON value, naming table, row and
 * field, so the researcher sees a damaged workspace, not an internal error.
 */
import type Database from 'better-sqlite3';
import { EngineError } from '../errors';
import type { Store } from './database';
import type { ColumnPlace } from './json-column';
import { StoredTextError } from './text-blobs';
import { storedTextError } from './text-damage';
import { sqliteCode } from './write-errors';

interface ColumnInfo {
  name: string;
  pk: number;
}

/** Every `*_json` column of the workspace's tables, with each table's key columns. */
function jsonColumns(
  db: Database.Database,
): { table: string; key: string[]; columns: string[]; names: Set<string> }[] {
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .pluck()
    .all() as string[];
  return tables.flatMap((table) => {
    const info = db.prepare(`PRAGMA table_info("${table}")`).all() as ColumnInfo[];
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

/**
 * The first stored value of a `*_json` column that is not valid JSON, or undefined when there
 * is none. Reads every JSON column once (the open check, and a query that met the damage).
 */
export function findMalformedJson(db: Database.Database): ColumnPlace | undefined {
  for (const { table, key, columns, names } of jsonColumns(db)) {
    for (const column of columns) {
      const keyList = key.map((name) => `"${name}"`).join(', ');
      // A text moved to a blob (store/text-blobs.ts) leaves its column '': not a damaged value.
      const inBlob = names.has(`${column}_blob`) ? ` AND "${column}_blob" IS NULL` : '';
      const row = db
        .prepare(
          `SELECT ${keyList} FROM "${table}" WHERE "${column}" IS NOT NULL${inBlob} AND json_valid("${column}") = 0 LIMIT 1`,
        )
        .raw()
        .get() as unknown[] | undefined;
      if (row) return { table, row: row.map(String).join('/'), field: column };
    }
  }
  return undefined;
}

function isMalformedJson(error: unknown): boolean {
  return error instanceof Error && /malformed JSON/i.test(error.message);
}

/**
 * `error` as the store_unreadable error it stands for when it is damage SQLite met while
 * reading (a malformed JSON value, a damaged page, a stored text that cannot be read back);
 * any other error is returned as it is.
 */
export function namedStoreDamage(store: Store, error: unknown): unknown {
  if (error instanceof StoredTextError) return storedTextError(store.db, error);
  const code = sqliteCode(error);
  if (code?.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return new EngineError(
      'store_unreadable',
      `The workspace database ${store.path} is damaged: ${(error as Error).message}. Restore it from a backup; CueLab left it as it is.`,
    );
  if (!isMalformedJson(error)) return error;
  let place: ColumnPlace | undefined;
  try {
    place = findMalformedJson(store.db);
  } catch {
    place = undefined;
  }
  return malformedJsonError(place);
}

/** The store_unreadable error for a JSON value that is not valid JSON at `place`. */
export function malformedJsonError(place: ColumnPlace | undefined): EngineError {
  const where = place
    ? `${place.table} row ${String(place.row)}: ${place.field}: not valid JSON`
    : 'a JSON column holds a value that is not valid JSON';
  return new EngineError(
    'store_unreadable',
    `The workspace database is damaged: ${where}. Restore the workspace from a backup, or delete that row.`,
  );
}
