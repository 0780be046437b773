/**
 * A study's analysis rows kept per open workspace and brought up to date incrementally (issue
 * 15): the first read is one narrow query; later reads first ask how many jobs are done (an
 * index count) and the study's newest rep rowid (an index seek), and read only the reps stored
 * since the last one seen (a rowid range), merging them into report order. A count that does
 * not add up (a job left `done`, a rep removed) falls back to a full read, so the cache never
 * answers with rows the database no longer has.
 * Each revision is a new array, so analyses can memoise on its identity (analysis/pairs.ts).
 */
import {
  itemRowsKey,
  noteItemContiguous,
  noteRowsGrown,
  type GrownItem,
  type JudgeRepRow,
} from '../analysis';
import { type Store } from '../store';
import {
  dimensionGoldStamp,
  doneJobCount,
  eachNativeAnalysisRecord,
  importedRepCount,
  latestRepRowid,
  readConditionBodies,
  readNativeAnalysisRecordsSince,
  type NativeAnalysisRecord,
} from '../store/faces/reps';
import {
  describe,
  nativeAnalysisRow,
  withTaxonomySizes,
  type ConditionFields,
} from './row-mapping';

/** The report-order keys of one cached row (rows.ts ORDER BY). */
interface OrderKey {
  readonly item: number;
  readonly judge: string;
  readonly condition: number;
  readonly direction: string;
  readonly rep: number;
}

interface NativeEntry {
  readonly origin: 'native';
  conditions: Map<string, ConditionFields>;
  rows: JudgeRepRow[];
  count: number;
  lastRowid: number;
  /** dimensionGoldStamp when read: new consensus gold changes rows without a rep landing. */
  gold: string;
}

interface ImportedEntry {
  readonly origin: 'imported';
  rows: JudgeRepRow[];
  count: number;
}

/** How the last `studyRows` call was answered (the bench prints it). */
export interface RowCacheRead {
  readonly kind: 'full' | 'incremental' | 'unchanged';
  /** Reps read from the database by this call. */
  readonly repsRead: number;
}

const caches = new WeakMap<Store, Map<string, NativeEntry | ImportedEntry>>();
let lastRead: RowCacheRead = { kind: 'full', repsRead: 0 };

/** How the most recent `studyRows` call was answered. */
export function lastRowCacheRead(): RowCacheRead {
  return lastRead;
}

/** Forgets the cached rows of one study (or of every study of the store). */
export function forgetStudyRows(store: Store, studyId?: string): void {
  if (studyId === undefined) caches.delete(store);
  else caches.get(store)?.delete(studyId);
}

/**
 * Whether the study's rows are held: then bringing them up to date reads only the landed reps,
 * which is cheaper than anything else a table can be served from.
 */
export function holdsStudyRows(store: Store, studyId: string): boolean {
  return caches.get(store)?.has(studyId) ?? false;
}

function studiesOf(store: Store): Map<string, NativeEntry | ImportedEntry> {
  let studies = caches.get(store);
  if (!studies) {
    studies = new Map();
    caches.set(store, studies);
  }
  return studies;
}

/** An imported study's rows: `read` again only when its rep count moved (a re-import). */
export function cachedImportedRows(
  store: Store,
  studyId: string,
  read: () => JudgeRepRow[],
): JudgeRepRow[] {
  const studies = studiesOf(store);
  const cached = studies.get(studyId);
  const count = importedRepCount(store, studyId);
  if (cached?.origin === 'imported' && cached.count === count) {
    lastRead = { kind: 'unchanged', repsRead: 0 };
    return cached.rows;
  }
  const rows = read();
  studies.set(studyId, { origin: 'imported', rows, count });
  lastRead = { kind: 'full', repsRead: rows.length };
  return rows;
}

/**
 * A native study's rows, identical to rows.ts `readStudyRows` (test/engine/report-cache.test.ts
 * holds them equal): unchanged, the landed reps merged in, or read in full.
 */
export function cachedNativeRows(store: Store, studyId: string): JudgeRepRow[] {
  const studies = studiesOf(store);
  const cached = studies.get(studyId);
  const count = doneJobCount(store, studyId);
  if (cached?.origin === 'native' && cached.gold === dimensionGoldStamp(store, studyId)) {
    if (cached.count === count && latestRepRowid(store, studyId) <= cached.lastRowid) {
      lastRead = { kind: 'unchanged', repsRead: 0 };
      return cached.rows;
    }
    if (count >= cached.count) {
      const added = readNativeAnalysisRecordsSince(store, studyId, cached.lastRowid);
      if (cached.count + added.length === count) {
        // Newer reps whose jobs are not done (taken back, failed over) add no row: the same
        // array is served, so nothing downstream is built again.
        if (added.length > 0) merge(cached, added);
        lastRead = { kind: 'incremental', repsRead: added.length };
        return cached.rows;
      }
    }
  }
  const entry = fullEntry(store, studyId);
  studies.set(studyId, entry);
  lastRead = { kind: 'full', repsRead: entry.count };
  return entry.rows;
}

function orderKey(record: NativeAnalysisRecord): OrderKey {
  return {
    item: record.item_position,
    judge: record.judge_id,
    condition: record.condition_position,
    direction: record.direction,
    rep: record.rep,
  };
}

/** SQLite's ORDER BY on these keys (identifiers are compared by code unit, as BINARY does for ASCII). */
function compareKeys(a: OrderKey, b: OrderKey): number {
  if (a.item !== b.item) return a.item - b.item;
  if (a.judge !== b.judge) return a.judge < b.judge ? -1 : 1;
  if (a.condition !== b.condition) return a.condition - b.condition;
  if (a.direction !== b.direction) return a.direction < b.direction ? -1 : 1;
  return a.rep - b.rep;
}

function fullEntry(store: Store, studyId: string): NativeEntry {
  const conditions = new Map<string, ConditionFields>(
    readConditionBodies(store, studyId).map((row) => [row.key, describe(row.condition)]),
  );
  // Each record becomes its row and order key as it is read, so the study is never held twice.
  const mapped: JudgeRepRow[] = [];
  const keys: OrderKey[] = [];
  let lastRowid = 0;
  for (const record of eachNativeAnalysisRecord(store, studyId)) {
    mapped.push(nativeAnalysisRow(record, conditions));
    keys.push(orderKey(record));
    lastRowid = Math.max(lastRowid, record.rep_rowid);
  }
  const rows = sizeRows(mapped);
  rows.forEach((row, index) => orderKeys.set(row, keys[index] as OrderKey));
  // Report order keeps each item's rows together: pairings can be grown item by item.
  noteItemContiguous(rows);
  return {
    origin: 'native',
    conditions,
    rows,
    count: rows.length,
    lastRowid,
    gold: dimensionGoldStamp(store, studyId),
  };
}

/**
 * Each cached row's report-order key. Kept beside the rows rather than in an array of their
 * own, so a batch copies one array of the study, not two.
 */
const orderKeys = new WeakMap<JudgeRepRow, OrderKey>();

function keyAt(rows: readonly JudgeRepRow[], index: number): OrderKey {
  return orderKeys.get(rows[index] as JudgeRepRow) as OrderKey;
}

/** The index range of item position `item`'s rows (keys sort by item first). */
function itemRange(rows: readonly JudgeRepRow[], item: number): { start: number; end: number } {
  const first = (position: number) => {
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (keyAt(rows, middle).item < position) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return { start: first(item), end: first(item + 1) };
}

/** Rows withTaxonomySizes gave a size (its item's); the others are as mapped. */
const sized = new WeakSet<JudgeRepRow>();

/** withTaxonomySizes, remembering which rows it sized so an item can be sized again later. */
function sizeRows(mapped: readonly JudgeRepRow[]): JudgeRepRow[] {
  const rows = withTaxonomySizes(mapped);
  rows.forEach((row, index) => {
    if (row !== mapped[index]) sized.add(row);
  });
  return rows;
}

/** An item's rows sized again from the rows as mapped (sizes depend on the whole item). */
function resizeItem(rows: readonly JudgeRepRow[]): JudgeRepRow[] {
  const resized = sizeRows(
    rows.map((row) => (sized.has(row) ? { ...row, taxonomySize: null } : row)),
  );
  resized.forEach((row, index) => {
    const key = orderKeys.get(rows[index] as JudgeRepRow);
    if (key && row !== rows[index]) orderKeys.set(row, key);
  });
  return resized;
}

/** `old` with `values[i]` inserted before index `ats[i]` of it (`ats` ascending): one copy. */
function insertAll<T>(old: readonly T[], ats: readonly number[], values: readonly T[]): T[] {
  const parts: (readonly T[])[] = [];
  let from = 0;
  ats.forEach((at, index) => {
    parts.push(old.slice(from, at), [values[index] as T]);
    from = at;
  });
  parts.push(old.slice(from));
  return ([] as T[]).concat(...parts);
}

function merge(entry: NativeEntry, added: readonly NativeAnalysisRecord[]): void {
  const previous = entry.rows;
  const incoming = added
    .map((record) => ({
      key: orderKey(record),
      row: nativeAnalysisRow(record, entry.conditions),
      record,
    }))
    .sort((a, b) => compareKeys(a.key, b.key));
  const positions = [...new Set(incoming.map(({ key }) => key.item))];
  // The touched items' rows as they were, before the batch's rows go in among them.
  const before = new Map(
    positions.map((position) => {
      const { start, end } = itemRange(previous, position);
      return [position, previous.slice(start, end)];
    }),
  );
  // Each new row goes after the cached rows of equal key, as SQLite's ORDER BY gives them; one
  // copy of each array (a new array per revision: analyses memoise on identity).
  const ats = incoming.map(({ key }) => insertionPoint(previous, key));
  for (const { key, row } of incoming) orderKeys.set(row, key);
  const rows = insertAll(
    previous,
    ats,
    incoming.map(({ row }) => row),
  );
  for (const { record } of incoming) entry.lastRowid = Math.max(entry.lastRowid, record.rep_rowid);
  entry.count += added.length;
  // Taxonomy sizes depend on the whole item, so only the touched items are sized again.
  const items: GrownItem[] = positions.map((position) => {
    const { start, end } = itemRange(rows, position);
    const itemRows = resizeItem(rows.slice(start, end));
    itemRows.forEach((row, index) => (rows[start + index] = row));
    return {
      key: itemRowsKey(itemRows[0] as JudgeRepRow),
      start,
      rows: itemRows,
      previousRows: before.get(position) ?? [],
    };
  });
  entry.rows = rows;
  noteRowsGrown(previous, rows, items);
}

/** First index whose key sorts after `key` (binary search; the batch is small, the study is not). */
function insertionPoint(rows: readonly JudgeRepRow[], key: OrderKey): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys(keyAt(rows, middle), key) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
