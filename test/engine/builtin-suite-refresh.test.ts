/**
 * The built-in suites are stored in a workspace when it lacks them and re-stored only when the
 * shipped file changed; the runner makes current, before it starts, the built-in suites whose
 * reps it may claim: every one when it runs the workspace, only its studies' for `cuelab run`.
 * Real SQLite files and the shipped suite files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { openStore, type Store } from '../../src/main/engine/store';
import { ensureSuite, loadBuiltinSuite, refreshBuiltinSuite } from '../../src/main/engine/suites';
import { makeTempDir } from '../helpers/temp-dir';

const itemCount = (store: Store, suiteId: string) =>
  store.db.prepare('SELECT count(*) FROM suite_items WHERE suite_id = ?').pluck().get(suiteId);
/** Rows this connection has written so far. */
const written = (store: Store) =>
  store.db.prepare('SELECT total_changes()').pluck().get() as number;
const storedVersion = (store: Store, suiteId: string) =>
  store.db
    .prepare(`SELECT json_extract(settings_json, '$.builtinVersion') FROM suites WHERE id = ?`)
    .pluck()
    .get(suiteId);
const storedSuites = (store: Store) =>
  store.db.prepare('SELECT id FROM suites ORDER BY id').pluck().all();

describe('built-in suites in a workspace', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  const tempDir = () => {
    const dir = makeTempDir();
    dirs.push(dir);
    return dir.path;
  };
  afterEach(() => {
    while (dirs.length) dirs.pop()?.remove();
  });

  it('stores a missing built-in suite, leaves a current one alone and replaces an old one', () => {
    const store = openStore(`${tempDir()}/cuelab.sqlite`);
    try {
      refreshBuiltinSuite(store, 'not-a-builtin');
      expect(storedSuites(store)).toEqual([]);
      refreshBuiltinSuite(store, 'cuelab-mini');
      const shipped = loadBuiltinSuite('cuelab-mini');
      expect(itemCount(store, 'cuelab-mini')).toBe(shipped.items.length);
      const version = storedVersion(store, 'cuelab-mini');
      expect(version).toMatch(/^[0-9a-f]+$/);
      const before = written(store);
      refreshBuiltinSuite(store, 'cuelab-mini');
      expect(written(store)).toBe(before);
      expect(ensureSuite(store, 'cuelab-mini').items.map((item) => item.id)).toEqual(
        shipped.items.map((item) => item.id).sort(),
      );
      store.db
        .prepare(
          `UPDATE suites SET settings_json = json_set(settings_json, '$.builtinVersion', 'old') WHERE id = ?`,
        )
        .run('cuelab-mini');
      const stale = written(store);
      refreshBuiltinSuite(store, 'cuelab-mini');
      expect(written(store)).toBeGreaterThan(stale + shipped.items.length);
      expect(storedVersion(store, 'cuelab-mini')).toBe(version);
      expect(itemCount(store, 'cuelab-mini')).toBe(shipped.items.length);
    } finally {
      store.close();
    }
  });

  it('the runner stores every built-in suite for the workspace, none for studies that use none', async () => {
    const only = createEngine({ path: tempDir(), source: 'flag' });
    try {
      only.startRunner({ studyIds: [] });
      await only.stopRunner();
      expect(storedSuites(engineStore(only))).toEqual([]);
    } finally {
      only.close();
    }
    const all = createEngine({ path: tempDir(), source: 'flag' });
    try {
      all.startRunner();
      await all.stopRunner();
      expect(storedSuites(engineStore(all))).toEqual(['cuelab-long', 'cuelab-mini']);
    } finally {
      all.close();
    }
  });
});
