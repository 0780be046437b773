/**
 * The workspace database: one SQLite file, WAL, forward-only numbered migrations tracked in
 * `PRAGMA user_version`. A database newer than this code is refused and left untouched; a
 * damaged, lost or foreign one is refused before anything is written (workspace-check.ts).
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { EngineError } from '../errors';
import { migrations as shippedMigrations, type Migration } from './migrations';
import { redactBoundValues } from './redacting-statements';
import { registerTextFunctions } from './text-blobs';
import { checkOpenedDatabase, refuseLostDatabase } from './workspace-check';
import { sqliteCode } from './write-errors';

/** An open workspace database. */
export interface Store {
  /** The connection; only store modules use it. */
  readonly db: Database.Database;
  /** Path of the database file. */
  readonly path: string;
  /** Schema version after migrating. */
  readonly schemaVersion: number;
  /** Closes the connection (idempotent). */
  close(): void;
}

/** Options for `openStore`; `migrations` is injectable for migration tests. */
export interface OpenStoreOptions {
  migrations?: readonly Migration[];
  /**
   * The workspace's own connection has already checked this file as it opened it (a worker's
   * second connection): the checks (quick_check, the sampled texts, the marker) are not run
   * again, which took a worker 250–450 ms to start on a 24 MB workspace.
   */
  alreadyChecked?: boolean;
}

/** The newest schema version the given migrations reach. */
export function latestVersion(migrations: readonly Migration[] = shippedMigrations): number {
  return migrations.reduce((latest, migration) => Math.max(latest, migration.version), 0);
}

/** Opens (creating if needed) and migrates the database at `path`. */
export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  const migrations = options.migrations ?? shippedMigrations;
  checkMigrationList(migrations);
  const latest = latestVersion(migrations);
  refuseLostDatabase(path);
  if (existsSync(path)) refuseIfNewer(path, latest);

  const db = openConnection(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (!options.alreadyChecked) checkOpenedDatabase(db, path);
    registerTextFunctions(db);
    const schemaVersion = migrate(db, path, migrations);
    redactBoundValues(db);
    let closed = false;
    return {
      db,
      path,
      schemaVersion,
      close() {
        if (closed) return;
        closed = true;
        db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A statement from `statement()`: run, get, all or iterate it as it is. Its mode-changing
 * methods are left out because the statement is shared by every caller of the same SQL; a
 * caller that needs pluck/raw/expand/bind prepares its own.
 */
export type PlainStatement<Parameters extends unknown[] = unknown[], Row = unknown> = Omit<
  Database.Statement<Parameters, Row>,
  'pluck' | 'raw' | 'expand' | 'safeIntegers' | 'bind'
>;

/** Per connection: SQL text → its prepared statement. */
const statementCaches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * Hot-path SQL is a few dozen constant strings: beyond this, the oldest statement is dropped
 * (SQL built from data, such as a placeholder list per call, cannot grow the cache unbounded).
 */
const statementCacheLimit = 256;

/**
 * The store's statement for `sql`, compiled once per connection and reused: compiling is most
 * of the cost of a small query, and the runner makes dozens per rep. A cached
 * statement still iterating (`busy`) is never handed out twice: that caller gets a fresh one.
 */
export function statement<Parameters extends unknown[] = unknown[], Row = unknown>(
  store: Store,
  sql: string,
): PlainStatement<Parameters, Row> {
  let cache = statementCaches.get(store.db);
  if (!cache) {
    cache = new Map();
    statementCaches.set(store.db, cache);
  }
  const cached = cache.get(sql);
  if (cached && !cached.busy) return cached as unknown as PlainStatement<Parameters, Row>;
  const prepared = store.db.prepare<Parameters, Row>(sql);
  if (!cached) {
    if (cache.size >= statementCacheLimit) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(sql, prepared);
  }
  return prepared;
}

function openConnection(path: string, readonly = false): Database.Database {
  try {
    return new Database(path, { readonly, fileMustExist: readonly });
  } catch (error) {
    throw new EngineError(
      'store_unreadable',
      `Cannot open the workspace database ${path}: ${(error as Error).message}.`,
    );
  }
}

/** Reads the version read-only, so a newer or foreign file is never modified. */
function refuseIfNewer(path: string, latest: number): void {
  const db = openConnection(path, true);
  let version: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (error) {
    if (sqliteCode(error)?.startsWith('SQLITE_CORRUPT'))
      throw new EngineError(
        'store_unreadable',
        `The workspace database ${path} is damaged (${(error as Error).message}). ` +
          'Restore it from a backup; CueLab left it as it is.',
      );
    throw new EngineError(
      'store_unreadable',
      `${path} is not a CueLab database (${(error as Error).message}). ` +
        'Move it aside or choose another workspace with --workspace DIR.',
    );
  } finally {
    db.close();
  }
  if (version > latest) {
    throw new EngineError(
      'schema_too_new',
      `The workspace database ${path} is at schema version ${version}, but this CueLab ` +
        `knows versions up to ${latest}. It was written by a newer CueLab: upgrade CueLab, ` +
        'or choose another workspace with --workspace DIR. The database was left untouched.',
    );
  }
}

function migrate(db: Database.Database, path: string, migrations: readonly Migration[]): number {
  let version = db.pragma('user_version', { simple: true }) as number;
  for (const migration of migrations) {
    if (migration.version <= version) continue;
    const apply = db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    });
    try {
      apply.immediate();
    } catch (error) {
      throw new EngineError(
        'internal',
        `Migration ${migration.version} (${migration.name}) failed on ${path}: ` +
          `${(error as Error).message}. The database stays at version ${version}.`,
      );
    }
    version = migration.version;
    if (migration.vacuumAfter) vacuum(db);
  }
  return version;
}

/**
 * Gives a rewritten file's freed pages back, outside the step's transaction (VACUUM cannot run
 * in one; it is atomic on its own). A failure (it needs free disk the size of the file) leaves
 * the migrated data as it is, only the file at its old size, so it does not fail the open.
 */
function vacuum(db: Database.Database): void {
  try {
    db.exec('VACUUM');
  } catch {
    return;
  }
}

function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration list out of order: position ${index} has ${migration.version}.`);
    }
  });
}
