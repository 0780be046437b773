/**
 * The no-exec snapshot backend: the item's final state written to a temporary folder, with
 * `read_file`, `list_dir` and read-only `sql_query`. It never runs a command on the host; items
 * whose judge needs a shell use the Docker backend. Reps of an item running at once share one
 * read-only folder (`provisionSnapshotEnvironment`). The item's SQL and the judge's queries run
 * on the host, inside the sandbox of item-sql.ts. The judge's tools in the folder are
 * snapshot-environment.ts.
 */
import {
  mkdir as mkdirCallback,
  mkdirSync,
  mkdtemp as mkdtempCallback,
  mkdtempSync,
  readFile as readFileCallback,
  realpath as realpathCallback,
  realpathSync,
  rm as rmCallback,
  rmdir as rmdirCallback,
  rmSync,
  unlink as unlinkCallback,
  writeFile as writeFileCallback,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { EnvironmentSpec } from '../../../shared/suite-format';
import type { DirEntry, JudgeEnvironment } from '../contract';
import { EngineError } from '../errors';
import { buildItemDatabase, buildItemDatabaseHere, databaseLabel } from './item-sql';
import { sqliteDatabaseOf } from '../../../shared/substrates/sqlite';
import { SnapshotEnvironment } from './snapshot-environment';

// The callback forms, promisified, rather than fs/promises: the same work off the event
// loop, but fs/promises opens a FileHandle per file read or written, and that bookkeeping
// cost more main-thread CPU than the rest of provisioning. realpath is the native
// one, as fs/promises' is.
const mkdir = promisify(mkdirCallback);
const mkdtemp = promisify(mkdtempCallback);
const readFile = promisify(readFileCallback);
const realpath = promisify(realpathCallback.native);
const rm = promisify(rmCallback);
const rmdir = promisify(rmdirCallback);
const unlink = promisify(unlinkCallback);
const writeFile = promisify(writeFileCallback);

/** A snapshot environment and its removal. */
export interface ProvisionedEnvironment {
  environment: JudgeEnvironment;
  /** Removes everything the environment created; safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Writes the spec's files (and database) to a fresh temporary folder, synchronously: the
 * database is built in this process, size-capped but with no time limit, so the runner never
 * uses this (it provisions through `provisionSnapshotEnvironment`).
 */
export function createSnapshotEnvironment(spec: EnvironmentSpec): ProvisionedEnvironment {
  const database = sqliteDatabaseOf(spec);
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cuelab-snapshot-')));
  try {
    for (const [path, content] of Object.entries(spec.files)) {
      const target = insideRoot(root, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    if (database?.sql) {
      const target = insideRoot(root, database.path);
      mkdirSync(dirname(target), { recursive: true });
      buildItemDatabaseHere(target, database.sql, 'environment.database.sql');
    }
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const environment = new SnapshotEnvironment(root, spec);
  return {
    environment,
    dispose: () => {
      rmSync(root, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

/**
 * The same environment, made without blocking the event loop (at concurrency 32 the
 * synchronous temp-dir work showed as event-loop delay): the folder and files are written
 * asynchronously, and an item's database is built once (synchronously, the first time its SQL is
 * seen) and then copied into each folder as bytes. The runner provisions through this.
 *
 * Reps of the same item running at once share one folder: nothing in a snapshot can change it
 * (no shell; files are read, the database is opened read-only), so a copy per rep bought no
 * isolation, and on an ext4 disk its creates and deletes, a few tenths of a millisecond each
 * and serialized by the journal, were most of a 32-rep wave's start. The folder is
 * removed when its last rep disposes; one rep's dispose never touches another's files.
 */
export async function provisionSnapshotEnvironment(
  spec: EnvironmentSpec,
  itemId?: string,
  options: SnapshotOptions = {},
): Promise<ProvisionedEnvironment> {
  let entry = sharedSnapshots.get(spec);
  if (!entry) {
    entry = { made: writeSnapshot(spec, itemId), users: 0 };
    sharedSnapshots.set(spec, entry);
  }
  const shared = entry;
  shared.users += 1;
  if (shared.removal) {
    clearTimeout(shared.removal);
    delete shared.removal;
    keptSnapshots.delete(shared);
  }
  let made: WrittenSnapshot;
  try {
    made = await shared.made;
  } catch (error) {
    // writeSnapshot removed what it wrote; the next rep tries afresh.
    shared.users -= 1;
    if (sharedSnapshots.get(spec) === shared) sharedSnapshots.delete(spec);
    throw error;
  }
  let disposed = false;
  return {
    environment: new SnapshotEnvironment(made.root, spec, made.listings),
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      shared.users -= 1;
      if (shared.users > 0) return;
      const keepMs = options.keepMs ?? 0;
      if (keepMs > 0) {
        keepFolder(spec, shared, made, keepMs);
        return;
      }
      if (sharedSnapshots.get(spec) === shared) sharedSnapshots.delete(spec);
      await removeSnapshot(made.root, made.written, made.folders);
    },
  };
}

/** How a snapshot is provisioned. */
export interface SnapshotOptions {
  /**
   * After its last rep disposes, the folder (and the listings read from it) stays this long for
   * the item's next rep instead of being written again (the runner: an item's cued reps follow
   * its uncued ones); then it goes, or at `removeKeptSnapshots`, or when the process exits.
   */
  keepMs?: number;
}

/** A folder some spec's reps share, and how many are using it now. */
interface SharedSnapshot {
  made: Promise<WrittenSnapshot>;
  users: number;
  /** The timer that removes a kept folder no rep is using. */
  removal?: NodeJS.Timeout;
}

/** Kept folders no rep is using, and how to remove each now. */
const keptSnapshots = new Map<SharedSnapshot, { root: string; remove: () => Promise<void> }>();

/** Removals of kept folders under way (their timer fired): a stop waits for them too. */
const removals = new Set<Promise<void>>();

function keepFolder(
  spec: EnvironmentSpec,
  shared: SharedSnapshot,
  made: WrittenSnapshot,
  keepMs: number,
): void {
  const remove = (): Promise<void> => {
    if (shared.removal) clearTimeout(shared.removal);
    delete shared.removal;
    keptSnapshots.delete(shared);
    if (sharedSnapshots.get(spec) === shared) sharedSnapshots.delete(spec);
    // removeSnapshot falls back to a forced recursive removal; a folder that cannot go at all
    // stays in the temp folder, which is no rep's failure.
    const removal = removeSnapshot(made.root, made.written, made.folders)
      .catch(() => undefined)
      .finally(() => removals.delete(removal));
    removals.add(removal);
    return removal;
  };
  shared.removal = setTimeout(() => void remove(), keepMs);
  // A kept folder never holds the process open; one still kept at exit is removed then.
  shared.removal.unref();
  keptSnapshots.set(shared, { root: made.root, remove });
  if (!removeAtExit) {
    removeAtExit = () => {
      for (const { root } of keptSnapshots.values()) {
        try {
          rmSync(root, { recursive: true, force: true });
        } catch {
          // Exiting: what cannot go stays in the temp folder.
        }
      }
    };
    process.once('exit', removeAtExit);
  }
}

let removeAtExit: (() => void) | undefined;

/**
 * Removes every kept folder no rep is using, and waits for removals under way (a runner
 * stopping; tests). Folders in use stay with their reps, which remove them as before.
 */
export async function removeKeptSnapshots(): Promise<void> {
  const started = [...keptSnapshots.values()].map((kept) => kept.remove());
  await Promise.all([...started, ...removals]);
}

/** A folder written for a spec, and what was written into it (for its removal). */
interface WrittenSnapshot {
  root: string;
  written: string[];
  folders: Set<string>;
  /** Listings read so far by the reps sharing the folder. */
  listings: Map<string, Promise<readonly DirEntry[]>>;
}

/**
 * The folder of each spec some rep is using now, and how many reps are. Keyed by the spec
 * object: a runner holds one per item, and the same object means the same content.
 */
const sharedSnapshots = new WeakMap<EnvironmentSpec, SharedSnapshot>();

async function writeSnapshot(spec: EnvironmentSpec, itemId?: string): Promise<WrittenSnapshot> {
  // Made under the temp folder's real path, so the new folder's path is real already.
  const root = await mkdtemp(join(await realTempDir(), 'cuelab-snapshot-'));
  const database = sqliteDatabaseOf(spec);
  const written: string[] = [];
  const folders = new Set<string>();
  try {
    const targets = Object.entries(spec.files).map(
      ([path, content]) => [insideRoot(root, path), content] as const,
    );
    // Each folder once (several files often share one), then the files.
    for (const [target] of targets) addFolders(root, dirname(target), folders);
    await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
    await Promise.all(
      targets.map(async ([target, content]) => {
        await writeFile(target, content);
        written.push(target);
      }),
    );
    // After the files, as the synchronous path builds it (which refuses a file at that path).
    if (database?.sql) {
      const target = insideRoot(root, database.path);
      const bytes = await itemDatabaseBytes(database.sql, itemId);
      addFolders(root, dirname(target), folders);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes);
      written.push(target);
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return { root, written, folders, listings: new Map() };
}

/** `folder` and each folder between it and `root` (mkdir made them all). */
function addFolders(root: string, folder: string, into: Set<string>): void {
  for (let current = folder; current !== root && current.startsWith(root);) {
    into.add(current);
    current = dirname(current);
  }
}

/**
 * Removes what provisioning wrote, file by file and folder by folder: a third of the calls a
 * recursive removal makes (it stats and lists every entry first), and each call is a hand-off
 * to the thread pool. Anything unexpected in there — a database's journal, or a
 * second dispose — falls back to removing the whole tree.
 */
async function removeSnapshot(
  root: string,
  written: readonly string[],
  folders: ReadonlySet<string>,
): Promise<void> {
  try {
    await Promise.all(written.map((file) => unlink(file)));
    // Deepest first: a folder's path is longer than its parent's.
    for (const folder of [...folders].sort((a, b) => b.length - a.length)) await rmdir(folder);
    await rmdir(root);
  } catch {
    await rm(root, { recursive: true, force: true });
  }
}

/** The real path of the temp folder, looked up once per temp folder setting. */
let realTemp: { dir: string; real: Promise<string> } | undefined;

function realTempDir(): Promise<string> {
  const dir = tmpdir();
  if (realTemp?.dir !== dir) {
    const real = realpath(dir);
    const entry = { dir, real };
    realTemp = entry;
    // A failed lookup is not kept: the next rep asks again.
    real.catch(() => {
      if (realTemp === entry) realTemp = undefined;
    });
  }
  return realTemp.real;
}

/** Built item databases by the SHA-256 of their SQL; a few dozen items' worth at most. */
const databaseBytes = new Map<string, Buffer>();
const databaseCacheSize = 32;

/**
 * The file an item's SQL builds (item-sql.ts sandbox, in the SQL child process), built once
 * per distinct SQL.
 */
async function itemDatabaseBytes(sql: string, itemId: string | undefined): Promise<Buffer> {
  const key = createHash('sha256').update(sql).digest('hex');
  const known = databaseBytes.get(key);
  if (known) return known;
  const scratch = await mkdtemp(join(await realTempDir(), 'cuelab-item-db-'));
  try {
    const path = join(scratch, 'item.sqlite');
    await buildItemDatabase(path, sql, databaseLabel(itemId));
    const bytes = await readFile(path);
    if (databaseBytes.size >= databaseCacheSize) {
      const oldest = databaseBytes.keys().next().value;
      if (oldest !== undefined) databaseBytes.delete(oldest);
    }
    databaseBytes.set(key, bytes);
    return bytes;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** `path` under `root`; the suite format already refuses escapes, this keeps it true here. */
function insideRoot(root: string, path: string): string {
  const target = resolve(root, path);
  const inside = relative(root, target);
  if (!inside || inside.startsWith('..') || isAbsolute(inside)) {
    throw new EngineError('bad_request', `environment path ${path} is outside the environment`);
  }
  return target;
}
