/**
 * The snapshot backend as the runner provisions it (asynchronously): the same files,
 * listing and database as the synchronous path; reps of one item running at once share its
 * read-only folder, one rep's dispose never takes it from another, nothing is left behind.
 */
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSnapshotEnvironment,
  provisionSnapshotEnvironment,
  removeKeptSnapshots,
} from '../../src/main/engine/environments/snapshot';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';

const spec = environmentSpecSchema.parse({
  files: { 'logs/a.log': 'alpha\n', 'src/main.py': 'print(1)\n' },
  database: { path: 'state.db', sql: "CREATE TABLE t (x); INSERT INTO t VALUES ('one');" },
});

describe('the snapshot backend provisioned asynchronously', () => {
  it('serves what the synchronous path serves, and removes its folder', async () => {
    const sync = createSnapshotEnvironment(spec);
    const first = await provisionSnapshotEnvironment(spec);
    const second = await provisionSnapshotEnvironment(spec);
    try {
      for (const path of ['.', 'logs', 'src'])
        expect(await first.environment.listDir(path)).toEqual(await sync.environment.listDir(path));
      expect(await first.environment.readFile('src/main.py', defaultToolLimits)).toEqual({
        content: 'print(1)\n',
        truncated: false,
      });
      const query = await first.environment.sqlQuery('SELECT x FROM t', defaultToolLimits);
      expect(query.rows).toEqual([['one']]);
      await expect(first.environment.readFile('../etc/passwd', defaultToolLimits)).rejects.toThrow(
        /outside|no such/,
      );
      // Each rep has its own copy: one rep's folder going away leaves the other's intact.
      await second.dispose();
      expect((await first.environment.sqlQuery('SELECT x FROM t', defaultToolLimits)).rows).toEqual(
        [['one']],
      );
    } finally {
      await first.dispose();
      await sync.dispose();
    }
    const root = (first.environment as unknown as { root: string }).root;
    expect(existsSync(root)).toBe(false);
  });

  it('removes nested folders, and anything else found inside, even when disposed twice', async () => {
    const nested = () =>
      environmentSpecSchema.parse({
        files: { 'a/b/c/deep.txt': 'deep\n', 'a/top.txt': 'top\n', 'x/y.txt': 'y\n' },
        database: { path: 'data/sub/state.db', sql: 'CREATE TABLE t (x);' },
      });
    // Two items (two spec objects) with the same content: two folders.
    const plain = await provisionSnapshotEnvironment(nested());
    const extra = await provisionSnapshotEnvironment(nested());
    const rootOf = (provisioned: typeof plain) =>
      (provisioned.environment as unknown as { root: string }).root;
    expect(rootOf(extra)).not.toBe(rootOf(plain));
    // Made under the temp folder's real path: the root is real, so path checks hold.
    expect(realpathSync(rootOf(plain))).toBe(rootOf(plain));
    expect(await plain.environment.listDir('a/b/c')).toEqual([
      { name: 'deep.txt', type: 'file', size: 5 },
    ]);
    // Something provisioning did not write (a journal, say): removal falls back to the tree.
    writeFileSync(join(rootOf(extra), 'a', 'b', 'stray.tmp'), 'x');
    await plain.dispose();
    await extra.dispose();
    expect(existsSync(rootOf(plain))).toBe(false);
    expect(existsSync(rootOf(extra))).toBe(false);
    await expect(plain.dispose()).resolves.toBeUndefined();
  });

  it('shares one folder among the reps of an item running at once, until the last ends', async () => {
    const rootOf = (provisioned: { environment: unknown }) =>
      (provisioned.environment as { root: string }).root;
    const reps = await Promise.all([1, 2, 3].map(() => provisionSnapshotEnvironment(spec)));
    const root = rootOf(reps[0]!);
    expect(reps.map(rootOf)).toEqual([root, root, root]);
    // A listing read by one rep is the one the others get, each its own copy of it.
    const listed = await reps[0]!.environment.listDir('logs');
    listed[0]!.name = 'changed by a caller';
    expect(await reps[1]!.environment.listDir('logs')).toEqual([
      { name: 'a.log', type: 'file', size: 6 },
    ]);
    await expect(reps[1]!.environment.listDir('missing')).rejects.toThrow(/no such/);
    // Disposing one rep twice counts once: the other two still read their files.
    await reps[0]!.dispose();
    await reps[0]!.dispose();
    expect(await reps[1]!.environment.readFile('logs/a.log', defaultToolLimits)).toEqual({
      content: 'alpha\n',
      truncated: false,
    });
    await reps[1]!.dispose();
    expect(
      (await reps[2]!.environment.sqlQuery('SELECT x FROM t', defaultToolLimits)).rows,
    ).toEqual([['one']]);
    await reps[2]!.dispose();
    expect(existsSync(root)).toBe(false);
    // A rep after that gets a folder of its own again.
    const later = await provisionSnapshotEnvironment(spec);
    expect(rootOf(later)).not.toBe(root);
    expect(await later.environment.listDir('logs')).toEqual([
      { name: 'a.log', type: 'file', size: 6 },
    ]);
    await later.dispose();
    expect(existsSync(rootOf(later))).toBe(false);
  });

  it('keeps a folder for the item’s next rep when asked, until its time or the runner’s stop', async () => {
    const rootOf = (provisioned: { environment: unknown }) =>
      (provisioned.environment as { root: string }).root;
    const kept = environmentSpecSchema.parse({ files: { 'notes/a.txt': 'a\n' } });
    const first = await provisionSnapshotEnvironment(kept, 'kept-item', { keepMs: 60_000 });
    const root = rootOf(first);
    await first.dispose();
    // Nobody uses it, and it is still there: the next rep of the item reads the same folder.
    expect(existsSync(join(root, 'notes', 'a.txt'))).toBe(true);
    const next = await provisionSnapshotEnvironment(kept, 'kept-item', { keepMs: 60_000 });
    expect(rootOf(next)).toBe(root);
    expect(await next.environment.readFile('notes/a.txt', defaultToolLimits)).toEqual({
      content: 'a\n',
      truncated: false,
    });
    // In use again, a stop does not take it; once its last rep is done, the stop does.
    await removeKeptSnapshots();
    expect(existsSync(root)).toBe(true);
    await next.dispose();
    await removeKeptSnapshots();
    expect(existsSync(root)).toBe(false);
    const after = await provisionSnapshotEnvironment(kept, 'kept-item', { keepMs: 60_000 });
    expect(rootOf(after)).not.toBe(root);

    // Kept only for its time: then it goes with nobody asking.
    await after.dispose();
    const short = await provisionSnapshotEnvironment(kept, 'kept-item', { keepMs: 50 });
    expect(rootOf(short)).toBe(rootOf(after));
    await short.dispose();
    await expect.poll(() => existsSync(rootOf(short)), { timeout: 5_000 }).toBe(false);
  });

  it('refuses an item database that escapes its sandbox', async () => {
    const evil = environmentSpecSchema.parse({
      files: {},
      database: { path: 'state.db', sql: "ATTACH '/tmp/evil.db' AS p; CREATE TABLE p.t (x);" },
    });
    await expect(provisionSnapshotEnvironment(evil)).rejects.toThrow(/not allowed/);
  });
});
