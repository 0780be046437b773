/**
 * Pairings kept per item and grown with the reps that land (a live refresh costs
 * what the batch costs, not the study). Every pairing key includes the item (pairs.ts), so the
 * pairs of a study are each item's pairs in turn, provided each item's rows are contiguous and
 * items come in report order, as the report cache hands them out (reports/row-cache.ts). When
 * the cache grows an array from an earlier one it says which items changed (`noteRowsGrown`);
 * the pairing of the earlier array is then carried over and only those items are paired again.
 * Equality with a full pairing is checked after every batch (test/engine/report-cache.test.ts).
 */
import { growRanks, itemRanks, itemRowsKey, type ItemRanks } from './item-order';
import type { PairedItem } from './pairs';
import { growRowFacts } from './row-facts';
import type { JudgeRepRow } from './types';

export { itemRowsKey } from './item-order';

/** The rows of one item of a grown array: where they start in it, and all of them. */
export interface GrownItem {
  /** `${dataset}\u0000${itemId}`, as `itemRowsKey` makes it. */
  readonly key: string;
  /** Index of the item's first row in the grown array. */
  readonly start: number;
  readonly rows: readonly JudgeRepRow[];
  /** The item's rows in the array it grew from (none for a new item). */
  readonly previousRows: readonly JudgeRepRow[];
}

/** Pairs one item's rows given the study's binary dimensions (pairs.ts `pairRows`). */
export type ItemPairer = (
  rows: readonly JudgeRepRow[],
  control: string,
  binary: ReadonlySet<string>,
) => PairedItem[];

interface ItemSlot {
  rows: readonly JudgeRepRow[];
  pairs: readonly PairedItem[];
}

interface PairState {
  /** Reps with a pass/fail verdict per dimension: the binary set is the dimensions above 0. */
  verdictReps: Map<string, number>;
  items: Map<string, ItemSlot>;
  /** Item keys in report order. */
  order: string[];
  /** The pairs last made from this state. */
  pairs: readonly PairedItem[];
}

/** One touched item's pairs before and after a batch. */
export interface GrownPairs {
  readonly key: string;
  readonly removed: readonly PairedItem[];
  readonly added: readonly PairedItem[];
}

/** How a pairing differs from the one it grew from: the touched items' old and new pairs. */
export interface PairingGrowth {
  readonly previous: readonly PairedItem[];
  readonly items: readonly GrownPairs[];
}

interface Growth {
  readonly previous: readonly JudgeRepRow[];
  readonly items: readonly GrownItem[];
}

const contiguous = new WeakSet<readonly JudgeRepRow[]>();
const growths = new WeakMap<readonly JudgeRepRow[], Growth>();
/** Each grown array's growth, one step only, for tallies over rows (scoped-tally.ts `rowTally`). */
const rowGrowths = new WeakMap<readonly JudgeRepRow[], Growth>();
const states = new WeakMap<readonly JudgeRepRow[], Map<string, PairState>>();
const pairingGrowths = new WeakMap<readonly PairedItem[], PairingGrowth>();
/** The row array each indexed pairing was made from (its item ranks are the pairing's). */
const pairedRows = new WeakMap<readonly PairedItem[], readonly JudgeRepRow[]>();
let lastUpdate: 'full' | 'incremental' | 'none' = 'none';

/** How the last pairing of a contiguous array was made (tests and the bench print it). */
export function lastPairingUpdate(): 'full' | 'incremental' | 'none' {
  return lastUpdate;
}

/**
 * The item ranks of an indexed pairing (item-order.ts): its pairs come item by item in rank
 * order. Undefined for a pairing of any other array.
 */
export function pairingRanks(pairs: readonly PairedItem[]): ItemRanks | undefined {
  const rows = pairedRows.get(pairs);
  return rows ? itemRanks(rows) : undefined;
}

/** How the report cache grew `rows` from an earlier array, when it did (one step back). */
export function rowsGrowth(
  rows: readonly JudgeRepRow[],
): { readonly previous: readonly JudgeRepRow[]; readonly items: readonly GrownItem[] } | undefined {
  return rowGrowths.get(rows);
}

/** How `pairs` grew from an earlier pairing, when it did (scoped-tally.ts carries counts over). */
export function pairingGrowth(pairs: readonly PairedItem[]): PairingGrowth | undefined {
  return pairingGrowths.get(pairs);
}

/** Marks `rows` as item-contiguous in report order (the report cache's arrays are). */
export function noteItemContiguous(rows: readonly JudgeRepRow[]): void {
  contiguous.add(rows);
}

/**
 * Says that `next` is `previous` with the rows of `items` replaced (new reps merged in; their
 * item's other rows may be new objects too). Both arrays are item-contiguous.
 */
export function noteRowsGrown(
  previous: readonly JudgeRepRow[],
  next: readonly JudgeRepRow[],
  items: readonly GrownItem[],
): void {
  contiguous.add(next);
  growRanks(
    previous,
    next,
    items.map((item) => ({ key: item.key, start: item.start, length: item.rows.length })),
  );
  growRowFacts(previous, next, items);
  // One step only: the earlier array forgets its own growth, so no chain of arrays is held.
  rowGrowths.delete(previous);
  rowGrowths.set(next, { previous, items });
  // A revision nobody paired is skipped over: its own growth is not chained (the start
  // indices would be stale), so the next pairing of `next` starts afresh.
  if (!growths.has(previous)) growths.set(next, { previous, items });
}

function binaryOf(verdictReps: ReadonlyMap<string, number>): Set<string> {
  return new Set([...verdictReps].filter(([, count]) => count > 0).map(([dimension]) => dimension));
}

function countVerdicts(counts: Map<string, number>, rows: readonly JudgeRepRow[], sign: 1 | -1) {
  for (const row of rows)
    if (row.verdict !== null) counts.set(row.dimension, (counts.get(row.dimension) ?? 0) + sign);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((value) => b.has(value));
}

function fullState(
  rows: readonly JudgeRepRow[],
  control: string,
  pair: ItemPairer,
): PairState | null {
  const verdictReps = new Map<string, number>();
  countVerdicts(verdictReps, rows, 1);
  const binary = binaryOf(verdictReps);
  const items = new Map<string, ItemSlot>();
  const order: string[] = [];
  let start = 0;
  while (start < rows.length) {
    const key = itemRowsKey(rows[start] as JudgeRepRow);
    let end = start + 1;
    while (end < rows.length && itemRowsKey(rows[end] as JudgeRepRow) === key) end += 1;
    // An item seen again further on: not in report order, so not pairable item by item.
    if (items.has(key)) return null;
    const itemRows = rows.slice(start, end);
    items.set(key, { rows: itemRows, pairs: pair(itemRows, control, binary) });
    order.push(key);
    start = end;
  }
  return { verdictReps, items, order, pairs: [] };
}

/** The state carried over from the array `next` grew from, updated; null when there is none. */
function grownState(
  next: readonly JudgeRepRow[],
  control: string,
  pair: ItemPairer,
): { state: PairState; items: GrownPairs[] } | null {
  const growth = growths.get(next);
  const state = growth ? states.get(growth.previous)?.get(control) : undefined;
  if (!growth || !state) return null;
  // The state moves to `next`: the earlier array keeps its pairs, not its state.
  states.get(growth.previous)?.delete(control);
  const before = binaryOf(state.verdictReps);
  for (const item of growth.items) {
    countVerdicts(state.verdictReps, state.items.get(item.key)?.rows ?? [], -1);
    countVerdicts(state.verdictReps, item.rows, 1);
  }
  const binary = binaryOf(state.verdictReps);
  // A dimension that gained (or lost) its first verdict changes every item's pairing.
  if (!sameSet(before, binary)) return null;
  const items: GrownPairs[] = [];
  for (const item of growth.items) {
    const old = state.items.get(item.key);
    if (!old) {
      const neighbour = item.start > 0 ? next[item.start - 1] : undefined;
      const at = neighbour ? state.order.indexOf(itemRowsKey(neighbour)) + 1 : 0;
      state.order.splice(at, 0, item.key);
    }
    const pairs = pair(item.rows, control, binary);
    items.push({ key: item.key, removed: old?.pairs ?? [], added: pairs });
    state.items.set(item.key, { rows: item.rows, pairs });
  }
  return { state, items };
}

/**
 * The pairs of an item-contiguous array, from the pairing it grew from where there is one;
 * null for any other array (pairs.ts pairs it whole).
 */
export function indexedPairs(
  rows: readonly JudgeRepRow[],
  control: string,
  pair: ItemPairer,
): PairedItem[] | null {
  if (!contiguous.has(rows)) return null;
  const grown = grownState(rows, control, pair);
  const state = grown?.state ?? fullState(rows, control, pair);
  if (!state) return null;
  lastUpdate = grown ? 'incremental' : 'full';
  let byControl = states.get(rows);
  if (!byControl) {
    byControl = new Map();
    states.set(rows, byControl);
  }
  byControl.set(control, state);
  growths.delete(rows);
  const pairs: PairedItem[] = [];
  for (const key of state.order)
    for (const item of state.items.get(key)?.pairs ?? []) pairs.push(item);
  if (grown) {
    // One step only: the earlier pairing forgets its own growth, so no chain of them is held.
    pairingGrowths.delete(state.pairs);
    pairingGrowths.set(pairs, { previous: state.pairs, items: grown.items });
  }
  pairedRows.set(pairs, rows);
  state.pairs = pairs;
  return pairs;
}
