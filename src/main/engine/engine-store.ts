/**
 * The database behind an engine, for the code inside the process that composed it: the local
 * commands' entry (machine.ts) and tests. The Engine object itself carries no store, so what
 * the CLI, the server and the shell are handed cannot reach past LabApi into the tables; this
 * file is not an entry the CLI may import (lint rule cuelab/cli-engine-entry).
 */
import type { Store } from './store';

const stores = new WeakMap<object, Store>();

/** Records the store an engine was composed over (engine.ts, once per engine). */
export function attachStore(engine: object, store: Store): void {
  stores.set(engine, store);
}

/** The store of an engine composed by createEngine. */
export function engineStore(engine: object): Store {
  const store = stores.get(engine);
  if (!store) throw new Error('This engine was not made by createEngine: it has no store.');
  return store;
}
