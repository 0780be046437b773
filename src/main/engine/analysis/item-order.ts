/**
 * The report order of a row array's items as ranks that stay true while the array grows.
 * Counts kept across a live study's batches remember where each group first
 * appeared (first-seen.ts) by item; comparing two such places needs the items' order in the
 * newest array, which an index in it cannot give (every insertion shifts the indices after it).
 * A rank is a number per item key: a new item takes one between its neighbours', and when two
 * neighbours leave no room between them every item is ranked again in order (ranks compare the
 * same before and after, so nothing that holds an item key is affected).
 */
import type { JudgeRepRow } from './types';

/** The key an item's rows share: `${dataset}\u0000${itemId}`. */
export function itemRowsKey(row: { readonly dataset: string; readonly itemId: string }): string {
  return `${row.dataset}\u0000${row.itemId}`;
}

/** Ranks of the items of one array (and of the arrays grown from it). */
export interface ItemRanks {
  /** The item's rank; items of the array sort by it in report order. */
  rank(key: string): number;
}

class Ranks implements ItemRanks {
  readonly byKey = new Map<string, number>();

  rank(key: string): number {
    const rank = this.byKey.get(key);
    if (rank === undefined) throw new Error(`item ${JSON.stringify(key)} has no rank`);
    return rank;
  }

  /** Ranks every item of `rows` 0, 1, 2… in order (rows are item-contiguous). */
  renumber(rows: readonly JudgeRepRow[]): void {
    this.byKey.clear();
    let last: string | undefined;
    for (const row of rows) {
      const key = itemRowsKey(row);
      if (key !== last && !this.byKey.has(key)) this.byKey.set(key, this.byKey.size);
      last = key;
    }
  }
}

const known = new WeakMap<readonly JudgeRepRow[], Ranks>();

/** The ranks of an item-contiguous array, made in one pass the first time they are asked for. */
export function itemRanks(rows: readonly JudgeRepRow[]): ItemRanks {
  let ranks = known.get(rows);
  if (!ranks) {
    ranks = new Ranks();
    ranks.renumber(rows);
    known.set(rows, ranks);
  }
  return ranks;
}

/** The new items of a grown array: each item's first row index and row count in `next`. */
export interface PlacedItem {
  readonly key: string;
  readonly start: number;
  readonly length: number;
}

/**
 * Carries the ranks of `previous` over to `next` (which is `previous` with `items` replaced or
 * inserted), when `previous` has ranks; otherwise `next` ranks itself when first asked.
 */
export function growRanks(
  previous: readonly JudgeRepRow[],
  next: readonly JudgeRepRow[],
  items: readonly PlacedItem[],
): void {
  const ranks = known.get(previous);
  if (!ranks) return;
  known.set(next, ranks);
  // In array order, so an item's left neighbour is ranked before it is.
  const sorted = [...items].sort((a, b) => a.start - b.start);
  for (const item of sorted) {
    if (ranks.byKey.has(item.key)) continue;
    const before = item.start > 0 ? next[item.start - 1] : undefined;
    const low = before ? ranks.byKey.get(itemRowsKey(before)) : undefined;
    const high = nextRanked(ranks, next, item.start + item.length);
    const rank =
      low === undefined
        ? high === undefined
          ? 0
          : high - 1
        : high === undefined
          ? low + 1
          : low + (high - low) / 2;
    if ((low !== undefined && rank <= low) || (high !== undefined && rank >= high)) {
      ranks.renumber(next);
      return;
    }
    ranks.byKey.set(item.key, rank);
  }
}

/** The rank of the first already-ranked item at or after row `index` of `rows`. */
function nextRanked(ranks: Ranks, rows: readonly JudgeRepRow[], index: number): number | undefined {
  for (let at = index; at < rows.length; at += 1) {
    const rank = ranks.byKey.get(itemRowsKey(rows[at] as JudgeRepRow));
    if (rank !== undefined) return rank;
  }
  return undefined;
}
