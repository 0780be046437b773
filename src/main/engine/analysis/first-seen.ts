/**
 * Keys counted over the items of a row array, each with where it first appears (an item and an
 * index within the item's units), so keys can be listed in first-appearance order — the order a
 * pass over the whole array gives — without that pass. Counts kept across a live study's
 * batches are updated item by item: the touched items' old units out, their new ones
 * in, and each key's first place moved only where a touched item can move it. The one case that
 * cannot be settled from the batch (a key left the item it first appeared in, and no earlier
 * item holds it) marks the counts stale; the caller then counts them again in full.
 */
import type { ItemRanks } from './item-order';

/** Where a key first appears, and the value of the unit there. */
export interface FirstPlace<V> {
  readonly item: string;
  readonly index: number;
  readonly value: V;
}

/** A key's count, first place and payload. */
export interface SeenEntry<V, P> {
  count: number;
  first: FirstPlace<V>;
  readonly payload: P;
}

/** One unit of an item: its key, its place in the item and its value. */
export interface SeenUnit<V> {
  readonly key: string;
  readonly index: number;
  readonly value: V;
}

/** The old and new units of one touched item. */
export interface TouchedItem<V> {
  readonly item: string;
  readonly removed: readonly string[];
  readonly added: readonly SeenUnit<V>[];
}

function earlier<V>(ranks: ItemRanks, a: FirstPlace<V>, b: FirstPlace<V>): boolean {
  if (a.item === b.item) return a.index < b.index;
  return ranks.rank(a.item) < ranks.rank(b.item);
}

/** Counted keys in first-appearance order, each with a payload made when the key first comes. */
export class FirstSeen<V, P> {
  readonly entries = new Map<string, SeenEntry<V, P>>();

  /** Counts a unit of a full pass (units come in array order); `make` gives a new key's payload. */
  see(key: string, item: string, index: number, value: V, make: () => P): SeenEntry<V, P> {
    const entry = this.entries.get(key);
    if (entry) {
      entry.count += 1;
      return entry;
    }
    const created = { count: 1, first: { item, index, value }, payload: make() };
    this.entries.set(key, created);
    return created;
  }

  /**
   * Applies the batch's items: their old units out, their new ones in (a new key's payload is
   * made then; the caller adjusts payloads itself). Returns false when the counts went stale
   * (count again in full). Keys whose count reaches 0 are dropped.
   */
  carry(
    touched: readonly TouchedItem<V>[],
    ranks: ItemRanks,
    make: (key: string, value: V) => P,
  ): boolean {
    const candidates = new Map<string, FirstPlace<V>>();
    const items = new Set<string>();
    for (const { item, removed, added } of touched) {
      items.add(item);
      for (const key of removed) {
        const entry = this.entries.get(key);
        if (!entry) return false;
        entry.count -= 1;
      }
      for (const unit of added) {
        const place = { item, index: unit.index, value: unit.value };
        const entry = this.entries.get(unit.key);
        if (entry) entry.count += 1;
        else
          this.entries.set(unit.key, {
            count: 1,
            first: place,
            payload: make(unit.key, unit.value),
          });
        const best = candidates.get(unit.key);
        if (!best || earlier(ranks, place, best)) candidates.set(unit.key, place);
      }
    }
    for (const [key, entry] of this.entries) {
      if (entry.count <= 0) {
        this.entries.delete(key);
        continue;
      }
      const candidate = candidates.get(key);
      if (items.has(entry.first.item)) {
        // Its first item changed: the best place in the batch is the first if it is no later
        // than that item (nothing before that item held the key); otherwise it is unknown.
        if (
          !candidate ||
          (candidate.item !== entry.first.item &&
            ranks.rank(candidate.item) > ranks.rank(entry.first.item))
        )
          return false;
        entry.first = candidate;
      } else if (candidate && earlier(ranks, candidate, entry.first)) entry.first = candidate;
    }
    return true;
  }

  /** The entries in first-appearance order. */
  ordered(ranks: ItemRanks): [string, SeenEntry<V, P>][] {
    return [...this.entries].sort(([, a], [, b]) => {
      if (a.first.item === b.first.item) return a.first.index - b.first.index;
      return ranks.rank(a.first.item) - ranks.rank(b.first.item);
    });
  }
}
