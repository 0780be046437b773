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
import {
  dimensionGoldStamp,
  doneJobCount,
  importedRepCount,
  latestRepRowid,
  readConditionBodies,
  readNativeAnalysisRecords,
  readNativeAnalysisRecordsSince,
  type NativeAnalysisRecord,
  type Store,
} from '../store';
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
  keys: OrderKey[];
  /** Rows as mapped, before withTaxonomySizes (which depends on the whole item). */
  mapped: JudgeRepRow[];
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
  const records = readNativeAnalysisRecords(store, studyId);
  const mapped = records.map((record) => nativeAnalysisRow(record, conditions));
  const rows = withTaxonomySizes(mapped);
  // Report order keeps each item's rows together: pairings can be grown item by item.
  noteItemContiguous(rows);
  return {
    origin: 'native',
    conditions,
    keys: records.map(orderKey),
    mapped,
    rows,
    count: records.length,
    lastRowid: records.reduce((highest, record) => Math.max(highest, record.rep_rowid), 0),
    gold: dimensionGoldStamp(store, studyId),
  };
}

/** First index whose key sorts after `key` (binary search; the batch is small, the study is not). */
function insertionPoint(keys: readonly OrderKey[], key: OrderKey): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys(keys[middle] as OrderKey, key) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index range of item position `item`'s rows (keys sort by item first). */
function itemRange(keys: readonly OrderKey[], item: number): { start: number; end: number } {
  const first = (position: number) => {
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((keys[middle] as OrderKey).item < position) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return { start: first(item), end: first(item + 1) };
}

function merge(entry: NativeEntry, added: readonly NativeAnalysisRecord[]): void {
  const previous = entry.rows;
  const touched = new Set<number>();
  for (const record of added) {
    touched.add(record.item_position);
    const key = orderKey(record);
    const at = insertionPoint(entry.keys, key);
    entry.keys.splice(at, 0, key);
    entry.mapped.splice(at, 0, nativeAnalysisRow(record, entry.conditions));
    entry.lastRowid = Math.max(entry.lastRowid, record.rep_rowid);
  }
  entry.count += added.length;
  // A new array per revision (analyses memoise on identity); sizes depend on whole items.
  entry.rows = withTaxonomySizes(entry.mapped);
  const items: GrownItem[] = [...touched]
    .sort((a, b) => a - b)
    .map((position) => {
      const { start, end } = itemRange(entry.keys, position);
      const rows = entry.rows.slice(start, end);
      return { key: itemRowsKey(rows[0] as JudgeRepRow), start, rows };
    });
  noteRowsGrown(previous, entry.rows, items);
}
