import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/main/engine/errors';
import { latestVersion, openStore } from '../../src/main/engine/store/database';
import { migrations, type Migration } from '../../src/main/engine/store/migrations';
import { listStudies } from '../../src/main/engine/store/studies';
import { listSuites } from '../../src/main/engine/store/suites';
import { makeTempDir } from '../helpers/temp-dir';

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function expectEngineError(run: () => unknown, code: string): EngineError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe(code);
    return error as EngineError;
  }
  throw new Error(`expected an EngineError with code ${code}`);
}

describe('workspace database', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let path: string;
  beforeEach(() => {
    dir = makeTempDir();
    path = join(dir.path, 'cuelab.sqlite');
  });
  afterEach(() => dir.remove());

  it('creates a new file in WAL mode at the latest schema version', () => {
    const store = openStore(path);
    expect(store.schemaVersion).toBe(latestVersion());
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(listSuites(store)).toEqual([]);
    expect(listStudies(store)).toEqual([]);
    store.close();
    expect(existsSync(path)).toBe(true);
  });

  it('reopens an up-to-date file without running migrations again and keeps its rows', () => {
    const first = openStore(path);
    first.db
      .prepare(
        `INSERT INTO studies (id, name, status, spec_json, simulated, created_at, updated_at)
         VALUES ('s1', 'Pilot', 'draft', '{}', 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
      )
      .run();
    first.close();
    const second = openStore(path);
    expect(listStudies(second)).toEqual([
      {
        id: 's1',
        name: 'Pilot',
        status: 'draft',
        simulated: true,
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
      },
    ]);
    second.close();
  });

  it('applies only the newer migrations to an older database, forward only', () => {
    const base: Migration = { version: 1, name: 'base', sql: 'CREATE TABLE notes (body TEXT);' };
    const next: Migration = {
      version: 2,
      name: 'add author',
      sql: "ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT 'anon';",
    };
    const v1 = openStore(path, { migrations: [base] });
    v1.db.prepare("INSERT INTO notes (body) VALUES ('kept')").run();
    v1.close();

    const v2 = openStore(path, { migrations: [base, next] });
    expect(v2.schemaVersion).toBe(2);
    expect(v2.db.prepare('SELECT body, author FROM notes').all()).toEqual([
      { body: 'kept', author: 'anon' },
    ]);
    v2.close();
  });

  it('rolls back a failing migration and names it, leaving the previous version', () => {
    const base: Migration = { version: 1, name: 'base', sql: 'CREATE TABLE notes (body TEXT);' };
    const broken: Migration = {
      version: 2,
      name: 'broken step',
      sql: 'CREATE TABLE half (x TEXT); SELECT * FROM no_such_table;',
    };
    openStore(path, { migrations: [base] }).close();
    const error = expectEngineError(
      () => openStore(path, { migrations: [base, broken] }),
      'internal',
    );
    expect(error.message).toContain('Migration 2 (broken step)');
    expect(error.message).toContain('stays at version 1');

    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a database newer than the code and leaves the file untouched', () => {
    const future = new Database(path);
    future.exec('CREATE TABLE from_the_future (x TEXT)');
    future.pragma(`user_version = ${latestVersion() + 1}`);
    future.close();
    const before = sha256(path);

    const error = expectEngineError(() => openStore(path), 'schema_too_new');
    expect(error.message).toContain(`schema version ${latestVersion() + 1}`);
    expect(error.message).toContain('left untouched');
    expect(sha256(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('refuses a file that is not a SQLite database and leaves it untouched', () => {
    writeFileSync(path, 'item_id,verdict\nx,pass\n'.repeat(200));
    const before = sha256(path);
    const error = expectEngineError(() => openStore(path), 'store_unreadable');
    expect(error.message).toContain('is not a CueLab database');
    expect(sha256(path)).toBe(before);
  });
});
