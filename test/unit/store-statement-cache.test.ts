import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, statement, type Store } from '../../src/main/engine/store/database';
import { makeTempDir } from '../helpers/temp-dir';

// The per-connection statement cache: the same SQL gives the same compiled
// statement, a statement still iterating is never handed out twice, and each connection has
// its own statements (a closed one's are not reused by the next).
let folder: ReturnType<typeof makeTempDir>;
let store: Store;

beforeEach(() => {
  folder = makeTempDir('cuelab-statement-cache-');
  store = openStore(join(folder.path, 'workspace.sqlite'));
  store.db.exec('CREATE TABLE numbers (value INTEGER NOT NULL) STRICT');
  const insert = store.db.prepare('INSERT INTO numbers (value) VALUES (?)');
  for (const value of [1, 2, 3]) insert.run(value);
});

afterEach(() => {
  store.close();
  folder.remove();
});

describe('statement(store, sql)', () => {
  it('compiles a SQL text once per connection and reuses it', () => {
    const sql = 'SELECT value FROM numbers WHERE value >= ? ORDER BY value';
    const first = statement(store, sql);
    const second = statement(store, sql);
    expect(second).toBe(first);
    expect(second.all(2)).toEqual([{ value: 2 }, { value: 3 }]);
    expect(statement(store, 'SELECT count(*) AS n FROM numbers')).not.toBe(first);
  });

  it('hands out a fresh statement while the cached one is still iterating', () => {
    const sql = 'SELECT value FROM numbers ORDER BY value';
    const outer = statement<[], { value: number }>(store, sql);
    const pairs: [number, number][] = [];
    for (const row of outer.iterate()) {
      const inner = statement<[], { value: number }>(store, sql);
      expect(inner).not.toBe(outer);
      pairs.push([row.value, inner.all().length]);
    }
    expect(pairs).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    // Once the iteration has ended, the cached statement is free again.
    expect(statement(store, sql)).toBe(outer);
  });

  it('keeps each connection to its own statements', () => {
    const sql = 'SELECT count(*) AS n FROM numbers';
    const before = statement(store, sql);
    store.close();
    store = openStore(join(folder.path, 'workspace.sqlite'));
    const after = statement(store, sql);
    expect(after).not.toBe(before);
    expect(after.get()).toEqual({ n: 3 });
  });

  it('stays bounded when SQL is built from data', () => {
    const first = statement(store, 'SELECT 0 AS n');
    for (let index = 1; index <= 300; index += 1) statement(store, `SELECT ${index} AS n`);
    // The oldest entry was dropped: asking again compiles it anew (and still works).
    const again = statement(store, 'SELECT 0 AS n');
    expect(again).not.toBe(first);
    expect(again.get()).toEqual({ n: 0 });
  });
});
