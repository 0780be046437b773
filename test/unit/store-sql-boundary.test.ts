import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// All SQL on the workspace database lives in `store/` (docs/ARCHITECTURE.md "store/"):
// no other engine file reaches the connection (`store.db`), prepares or executes a statement
// on a database handle, or opens a SQLite file itself.
const engine = join(__dirname, '..', '..', 'src', 'main', 'engine');

/** Files that open an item's own SQLite database, never the workspace's. */
const ITEM_DATABASE_FILES: Record<string, string> = {
  'environments/item-sql.ts': "builds an item's SQLite state in a sandbox that refuses ATTACH",
  'environments/sql-child.ts':
    "builds an item's SQLite file and answers the judge's queries, in the SQL child process",
};

/**
 * Files whose workspace SQL another branch (perf) is moving into store/. Once a file here has
 * none left, the test below says so: delete its entry then.
 */
const MOVING_ELSEWHERE: Record<string, string> = {};

const CONNECTION = /\bstore\s*\.\s*db\b/;
const STATEMENT = /\b(?:db|database)\s*\.\s*(?:prepare|exec|pragma|transaction)\s*\(/;
const DRIVER = /from\s+'better-sqlite3'|\bnew\s+Database\s*\(/;

/** The first line of `code` that uses the workspace database directly, or null. */
function firstDatabaseUse(code: string): string | null {
  const lines = code.split('\n');
  const index = lines.findIndex(
    (line) => CONNECTION.test(line) || STATEMENT.test(line) || DRIVER.test(line),
  );
  return index === -1 ? null : `${index + 1}: ${(lines[index] ?? '').trim()}`;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function engineFile(path: string): string {
  return relative(engine, path).split(sep).join('/');
}

describe('workspace SQL stays in store/', () => {
  it('the check sees a statement however it is written (the check itself)', () => {
    expect(firstDatabaseUse("const row = store.db.prepare('SELECT 1').get();")).not.toBeNull();
    expect(firstDatabaseUse('const rows = store.db\n  .prepare(`SELECT 1`)')).toBe(
      '1: const rows = store.db',
    );
    expect(firstDatabaseUse('const db = this.deps.store.db;')).not.toBeNull();
    expect(firstDatabaseUse("db.exec('DELETE FROM jobs');")).not.toBeNull();
    expect(firstDatabaseUse('db.transaction(() => {})();')).not.toBeNull();
    expect(firstDatabaseUse("import Database from 'better-sqlite3';")).not.toBeNull();
    // Regular expressions, container execs and Python inside a task's text are not SQL here.
    expect(firstDatabaseUse('const match = /^x$/.exec(line);')).toBeNull();
    expect(firstDatabaseUse('await environment.exec(command, limits, signal);')).toBeNull();
    expect(
      firstDatabaseUse("  rows = db.execute('SELECT sku FROM products').fetchall()"),
    ).toBeNull();
    expect(firstDatabaseUse('command: "sqlite3 app.db \'.schema\'"')).toBeNull();
  });

  it('no engine file outside store/ uses the workspace database', () => {
    const offenders = files(engine)
      .filter((path) => !engineFile(path).startsWith('store/'))
      .filter((path) => !(engineFile(path) in ITEM_DATABASE_FILES))
      .filter((path) => !(engineFile(path) in MOVING_ELSEWHERE))
      .flatMap((path) => {
        const use = firstDatabaseUse(readFileSync(path, 'utf8'));
        return use ? [`${engineFile(path)}:${use}`] : [];
      });
    expect(offenders).toEqual([]);
  });

  it('every allow-listed file exists and still needs its entry', () => {
    for (const file of Object.keys(ITEM_DATABASE_FILES)) {
      const code = readFileSync(join(engine, file), 'utf8');
      expect(DRIVER.test(code), `${file} opens a SQLite database of its own`).toBe(true);
    }
    for (const file of Object.keys(MOVING_ELSEWHERE)) {
      const path = join(engine, file);
      const stale = !existsSync(path) || firstDatabaseUse(readFileSync(path, 'utf8')) === null;
      expect(stale, `${file} has no workspace SQL left: delete it from MOVING_ELSEWHERE`).toBe(
        false,
      );
    }
  });
});
