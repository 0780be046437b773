/** A real SQLite workspace in a temp folder for one describe block: opened before, removed after. */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { makeTempDir } from './temp-dir';

/** Registers the hooks; `store()` is the open store, `path` the folder. */
export function useTempStore(): { store: () => Store; path: string } {
  const dir = makeTempDir();
  let store: Store | undefined;
  beforeAll(() => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
  });
  afterAll(() => {
    store?.close();
    dir.remove();
  });
  return {
    store: () => {
      if (!store) throw new Error('the temp store opens in beforeAll');
      return store;
    },
    path: dir.path,
  };
}
