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
  const incoming = added
    .map((record) => ({ key: orderKey(record), record }))
    .sort((a, b) => compareKeys(a.key, b.key));
  const positions = [...new Set(incoming.map(({ key }) => key.item))];
  // The touched items' rows as they were, before the batch's rows go in among them.
  const before = new Map(
    positions.map((position) => {
      const { start, end } = itemRange(entry.keys, position);
      return [position, previous.slice(start, end)];
    }),
  );
  // One merge pass (a new array per revision: analyses memoise on identity). Equal keys keep
  // the cached row first, as inserting after the last equal key did.
  const keys: OrderKey[] = [];
  const mapped: JudgeRepRow[] = [];
  const rows: JudgeRepRow[] = [];
  let at = 0;
  for (const { key, record } of incoming) {
    while (at < entry.keys.length && compareKeys(entry.keys[at] as OrderKey, key) <= 0) {
      keys.push(entry.keys[at] as OrderKey);
      mapped.push(entry.mapped[at] as JudgeRepRow);
      rows.push(previous[at] as JudgeRepRow);
      at += 1;
    }
    const row = nativeAnalysisRow(record, entry.conditions);
    keys.push(key);
    mapped.push(row);
    rows.push(row);
    entry.lastRowid = Math.max(entry.lastRowid, record.rep_rowid);
  }
  for (; at < entry.keys.length; at += 1) {
    keys.push(entry.keys[at] as OrderKey);
    mapped.push(entry.mapped[at] as JudgeRepRow);
    rows.push(previous[at] as JudgeRepRow);
  }
  entry.keys = keys;
  entry.mapped = mapped;
  entry.count += added.length;
  // Taxonomy sizes depend on the whole item, so only the touched items are sized again.
  const items: GrownItem[] = positions.map((position) => {
    const { start, end } = itemRange(keys, position);
    const itemRows = withTaxonomySizes(mapped.slice(start, end));
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
