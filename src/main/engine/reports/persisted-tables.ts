/**
 * A native study's row tables kept on disk beside the workspace database, keyed by everything
 * its rows depend on (store/analysis-rows.ts `nativeRowsStamp`) and by the engine version. The
 * first table after the engine starts is then a file read, not a read and analysis of every
 * rep: at the paper's scale (70,000 reps) that analysis took longer than one plain scan of the
 * rows, and the rows alone held hundreds of MB. Every table built from rows is written back, so
 * whoever draws a study last (the window during a run, the CLI) leaves it current for the next
 * start. A derived cache: a missing, stale or unreadable file only means "build it".
 *
 * Each file also says what its tables cover (the study's done reps when they were drawn, and
 * when) and which engine wrote it, so a window that asks for it can be shown an out-of-date
 * table at once, labelled, while the current one is drawn (`outdatedTable`). Only a file this
 * engine version and FORMAT wrote is offered so: an older engine's tables may have another
 * shape or analysis.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReportTable, TableName } from '../analysis';
import { type Store } from '../store';
import { doneJobCount, labelTablesStamp, nativeRowsStamp } from '../store/faces/reps';
import { engineVersion } from '../version';
import { writeCacheFile } from '../workspace';

/** Bumped when a table's shape or its analysis changes without a version change (development). */
const FORMAT = 2;

/** The engine that wrote a file: only its own files are served out of date. */
const WRITER = `${String(FORMAT)}/${engineVersion}`;

/** What a persisted file's tables were drawn from. */
export interface TablesCoverage {
  /** The study's done reps when the tables were drawn. */
  readonly reps: number;
  /** When the first table under the file's key was written (ISO 8601). */
  readonly drawnAt: string;
}

interface PersistedTables {
  readonly key: string;
  readonly tables: Partial<Record<TableName, ReportTable>>;
  /** Absent in files written before coverage was kept. */
  readonly coverage?: TablesCoverage;
  /** FORMAT and engine version of the writer; absent in older files. */
  readonly writer?: string;
}

/** What this process read of one file, and the file's identity, size and time then. */
interface HeldFile {
  readonly entry: PersistedTables;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * Row tables and the tables read from the store (labels, majorities) go to separate files
 * under separate keys: a new label must not throw away the row tables, and the row tables'
 * key must stay cheap enough to take on every request.
 */
export type PersistedPart = 'rows' | 'store';

/** What each open store has read or written, by study and part: one file read per key. */
const held = new WeakMap<Store, Map<string, PersistedTables>>();

/** Files as last read, by path: read again only once the file changed (another thread wrote it). */
const filesHeld = new WeakMap<Store, Map<string, HeldFile>>();

/** The folder of persisted tables: `cache/report-tables` beside the workspace database. */
export function persistedTablesDir(databasePath: string): string {
  return join(dirname(databasePath), 'cache', 'report-tables');
}

function fileOf(store: Store, studyId: string, part: PersistedPart): string {
  const name = createHash('sha256').update(studyId).digest('hex').slice(0, 32);
  return join(persistedTablesDir(store.path), `${name}.${part}.json`);
}

/** Where a study's tables of one part are persisted now; take it before reading what they show. */
export function studyTablesRef(store: Store, studyId: string, part: PersistedPart): PersistedRef {
  const stamp =
    part === 'rows' ? nativeRowsStamp(store, studyId) : labelTablesStamp(store, studyId);
  // Hashed: the store part's stamp holds the study's whole spec.
  const key = createHash('sha256')
    .update(`${FORMAT}\u0000${engineVersion}\u0000${studyId}\u0000${stamp}`)
    .digest('hex');
  return { studyId, part, key, reps: doneJobCount(store, studyId) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readFile(store: Store, studyId: string, part: PersistedPart): PersistedTables | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(fileOf(store, studyId, part), 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.key !== 'string' || !isRecord(parsed.tables))
    return undefined;
  // Written by this module under a key holding the engine version and FORMAT, so a file whose
  // key matches has the shape this code writes.
  const { coverage, writer } = parsed;
  const covered =
    isRecord(coverage) && typeof coverage.reps === 'number' && typeof coverage.drawnAt === 'string'
      ? { reps: coverage.reps, drawnAt: coverage.drawnAt }
      : undefined;
  return {
    key: parsed.key,
    tables: parsed.tables,
    ...(covered ? { coverage: covered } : {}),
    ...(typeof writer === 'string' ? { writer } : {}),
  };
}

function studiesOf(store: Store): Map<string, PersistedTables> {
  let studies = held.get(store);
  if (!studies) {
    studies = new Map();
    held.set(store, studies);
  }
  return studies;
}

/** What the engine asks for: a study's table of one part under one key. */
export interface PersistedRef {
  readonly studyId: string;
  readonly part: PersistedPart;
  readonly key: string;
  /** The study's done reps when the ref was taken: what a table drawn under it covers. */
  readonly reps: number;
}

/** The persisted table of the study under `ref.key`, if one was written. */
export function persistedTable(
  store: Store,
  ref: PersistedRef,
  name: TableName,
): ReportTable | undefined {
  const studies = studiesOf(store);
  const slot = `${ref.studyId}\u0000${ref.part}`;
  let entry = studies.get(slot);
  if (entry?.key !== ref.key) {
    entry = fileEntry(store, ref.studyId, ref.part);
    if (entry?.key !== ref.key) return undefined;
    studies.set(slot, entry);
  }
  return entry.tables[name];
}

/** A persisted table that is not current, and what it covers. */
export interface OutdatedTable {
  readonly table: ReportTable;
  readonly coverage: TablesCoverage;
}

/**
 * The study's persisted table of `ref`'s part when it was drawn under another key (rows or labels
 * moved since) by this engine version and FORMAT, with what it covers; undefined when the file
 * is current (ask `persistedTable`), missing, unreadable, or an older engine's. The file is
 * read again only when its size or time moved, so asking costs a stat.
 */
export function outdatedTable(
  store: Store,
  ref: PersistedRef,
  name: TableName,
): OutdatedTable | undefined {
  const entry = fileEntry(store, ref.studyId, ref.part);
  if (!entry || entry.key === ref.key || entry.writer !== WRITER || !entry.coverage)
    return undefined;
  const table = entry.tables[name];
  return table ? { table, coverage: entry.coverage } : undefined;
}

/**
 * The study's file of one part as it is on disk, read again only when its inode, size or time
 * moved: a stale key asked again and again (every request until the drawing ends) costs a stat.
 */
function fileEntry(
  store: Store,
  studyId: string,
  part: PersistedPart,
): PersistedTables | undefined {
  const file = fileOf(store, studyId, part);
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return undefined;
  }
  let files = filesHeld.get(store);
  if (!files) {
    files = new Map();
    filesHeld.set(store, files);
  }
  const known = files.get(file);
  if (known?.ino === stat.ino && known.size === stat.size && known.mtimeMs === stat.mtimeMs)
    return known.entry;
  const entry = readFile(store, studyId, part);
  if (!entry) return undefined;
  files.set(file, { entry, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs });
  return entry;
}

/** Writes `table` under `key` beside the study's other tables of that key (older keys go). */
export function persistTable(
  store: Store,
  ref: PersistedRef,
  name: TableName,
  table: ReportTable,
): void {
  const { key } = ref;
  const studies = studiesOf(store);
  const slot = `${ref.studyId}\u0000${ref.part}`;
  const previous = studies.get(slot);
  if (previous?.key === key && previous.tables[name] === table) return;
  const same = previous?.key === key;
  const entry: PersistedTables = {
    key,
    tables: { ...(same ? previous.tables : {}), [name]: table },
    coverage:
      same && previous.coverage
        ? previous.coverage
        : { reps: ref.reps, drawnAt: new Date().toISOString() },
    writer: WRITER,
  };
  studies.set(slot, entry);
  // A read-only or full workspace still serves tables; only the next start builds again.
  writeCacheFile(fileOf(store, ref.studyId, ref.part), JSON.stringify(entry));
}

/** Forgets what this process holds of the store's persisted tables (the bench; tests). */
export function forgetPersistedTables(store: Store): void {
  held.delete(store);
  filesHeld.delete(store);
}
