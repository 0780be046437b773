import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/main/engine/runner/group-commit';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { makeTempDir } from '../helpers/temp-dir';
import { mountSmallDisk, type SmallDisk } from '../helpers/tmpfs';

// The runner stores the reps that finish in the same turn in one transaction (group-commit.ts);
// these check what that may and may not change: each rep is stored whole or not at all, and
// a rep is reported stored only once another connection can read it.
describe('group commit of finished reps', () => {
  const dir = makeTempDir();
  let store: Store;
  let reader: Database.Database;
  const stored = () =>
    (reader.prepare('SELECT name FROM bench_reps ORDER BY name').all() as { name: string }[]).map(
      (row) => row.name,
    );
  const insert = (name: string) => () =>
    store.db.prepare('INSERT INTO bench_reps (name) VALUES (?)').run(name).lastInsertRowid;

  beforeAll(() => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    store.db.exec('CREATE TABLE bench_reps (name TEXT NOT NULL UNIQUE) STRICT');
    reader = new Database(join(dir.path, 'cuelab.sqlite'), { readonly: true });
  });
  afterAll(() => {
    reader.close();
    store.close();
    dir.remove();
  });

  it('stores what is queued in one turn in one transaction, readable elsewhere once acknowledged', async () => {
    store.db.exec('DELETE FROM bench_reps');
    const commits = new GroupCommit(store);
    const acknowledged = ['a', 'b', 'c'].map((name) => commits.commit(insert(name)));
    // Queued, not yet written: nothing may look stored before the transaction commits.
    expect(stored()).toEqual([]);
    const rowIds = await Promise.all(acknowledged);
    expect(stored()).toEqual(['a', 'b', 'c']);
    expect(rowIds.map(Number)).toEqual([1, 2, 3]);
    expect(commits.stats).toEqual({ groups: 1, committed: 3 });
    // A later turn starts a new group.
    await commits.commit(insert('d'));
    expect(commits.stats).toEqual({ groups: 2, committed: 4 });
    expect(stored()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rolls back only the rep whose own work failed (a lost lease); the others are stored', async () => {
    store.db.exec('DELETE FROM bench_reps');
    const commits = new GroupCommit(store);
    const lost = new Error('the job lease was lost to another worker');
    const results = await Promise.allSettled([
      commits.commit(insert('first')),
      commits.commit(() => {
        insert('half-written')();
        throw lost;
      }),
      // The same name again: a constraint failure is this rep's alone, too.
      commits.commit(insert('first')),
      commits.commit(insert('last')),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(results[1]).toMatchObject({ reason: lost });
    expect(stored()).toEqual(['first', 'last']);
    expect(commits.stats).toEqual({ groups: 1, committed: 2 });
  });
});

describe('group commit on a full disk', () => {
  const dir = makeTempDir();
  let disk: SmallDisk;
  let store: Store;

  beforeAll(() => {
    disk = mountSmallDisk(join(dir.path, 'disk'), 4);
    store = openStore(join(disk.path, 'cuelab.sqlite'));
    store.db.exec('CREATE TABLE bench_reps (name TEXT NOT NULL) STRICT');
  });
  afterAll(() => {
    store.close();
    disk.unmount();
    dir.remove();
  });

  it('fails every rep of the group with the storage failure and stores none of them', async () => {
    const commits = new GroupCommit(store);
    disk.fill();
    const big = 'x'.repeat(256 * 1024);
    const results = await Promise.allSettled(
      ['one', 'two', 'three'].map((name) =>
        commits.commit(() =>
          store.db.prepare('INSERT INTO bench_reps (name) VALUES (?)').run(`${name} ${big}`),
        ),
      ),
    );
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    for (const result of results)
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_FULL' });
    expect(commits.stats).toEqual({ groups: 0, committed: 0 });
    disk.free();
    expect(store.db.prepare('SELECT count(*) AS n FROM bench_reps').get()).toEqual({ n: 0 });
  });
});
