/**
 * First-appearance order kept across batches (analysis/first-seen.ts) and the item ranks it
 * compares by (analysis/item-order.ts): after every carried batch the keys come out in the
 * order a fresh pass over the whole array gives, and a batch that cannot be settled from its
 * own items says so instead of guessing.
 */
import { describe, expect, it } from 'vitest';
import { FirstSeen } from '../../src/main/engine/analysis/first-seen';
import { growRanks, itemRanks, itemRowsKey } from '../../src/main/engine/analysis/item-order';
import type { JudgeRepRow } from '../../src/main/engine/analysis';
import { seededRandom } from '../../src/main/engine/random';

/** A row of item `item` (dataset "d") with condition `condition`. */
function row(item: number, condition: string): JudgeRepRow {
  return {
    itemId: `i${String(item).padStart(4, '0')}`,
    dataset: 'd',
    judge: 'j',
    condition,
    cueDirection: null,
    rep: 1,
    verdict: null,
    score: null,
    gold: null,
    dimension: 'task_success',
    turns: null,
    simulated: false,
  };
}

/** No payload: these tests count keys and places only. */
const none = (): null => null;

/** Keys in first-appearance order, from one pass over item-ordered rows. */
function passOrder(items: Map<number, string[]>): string[] {
  const seen = new FirstSeen<null, null>();
  for (const [item, keys] of [...items].sort(([a], [b]) => a - b))
    keys.forEach((key, index) =>
      seen.see(key, `d\u0000i${String(item).padStart(4, '0')}`, index, null, none),
    );
  return [...seen.entries.keys()];
}

function rowsOf(items: Map<number, string[]>): JudgeRepRow[] {
  return [...items]
    .sort(([a], [b]) => a - b)
    .flatMap(([item, keys]) => keys.map((key) => row(item, key)));
}

describe('first-appearance order carried over batches', () => {
  it('equals a fresh pass after every random batch, or says it went stale', () => {
    const random = seededRandom(11, 'first-seen');
    const keyNames = ['a', 'b', 'c', 'd', 'e', 'f'];
    const items = new Map<number, string[]>();
    let rows = rowsOf(items);
    itemRanks(rows);
    const seen = new FirstSeen<null, null>();
    let stale = 0;
    let carried = 0;
    for (let batch = 0; batch < 300; batch += 1) {
      const touched = new Set<number>();
      while (touched.size < 3) touched.add(Math.floor(random() * 40));
      const previous = rows;
      const changes = [...touched].map((item) => {
        const before = items.get(item) ?? [];
        // Keys come and go: an item's units are made again from scratch, as a re-pairing does.
        const after = keyNames.filter(() => random() < 0.3);
        items.set(item, after);
        return { item, before, after };
      });
      for (const [item, keys] of [...items]) if (keys.length === 0) items.delete(item);
      rows = rowsOf(items);
      const key = (item: number) => `d\u0000i${String(item).padStart(4, '0')}`;
      growRanks(
        previous,
        rows,
        changes
          .filter(({ item }) => items.has(item))
          .map(({ item }) => ({
            key: key(item),
            start: rows.findIndex((entry) => itemRowsKey(entry) === key(item)),
            length: items.get(item)?.length ?? 0,
          })),
      );
      const ranks = itemRanks(rows);
      const ok = seen.carry(
        changes.map(({ item, before, after }) => ({
          item: key(item),
          removed: before,
          added: after.map((name, index) => ({ key: name, index, value: null })),
        })),
        ranks,
        none,
      );
      if (!ok) {
        stale += 1;
        seen.entries.clear();
        for (const [item, keys] of [...items].sort(([a], [b]) => a - b))
          keys.forEach((name, index) => seen.see(name, key(item), index, null, none));
        continue;
      }
      carried += 1;
      expect(seen.ordered(ranks).map(([name]) => name)).toEqual(passOrder(items));
      for (const [name, entry] of seen.entries)
        expect(entry.count).toBe([...items.values()].filter((keys) => keys.includes(name)).length);
    }
    // Both paths were taken: most batches carried, some had to count again.
    expect(carried).toBeGreaterThan(200);
    expect(stale).toBeGreaterThan(0);
  });
});

describe('item ranks', () => {
  it('keep report order when items keep arriving between the same two neighbours', () => {
    // Items 0 and 1000 first, then 1, 2, 3…: each new one lands between the last and 1000,
    // halving the gap until no number fits between them and every item is ranked again.
    let rows = [row(0, 'a'), row(1000, 'a')];
    itemRanks(rows);
    for (let item = 1; item < 120; item += 1) {
      const previous = rows;
      rows = [...rows.slice(0, item), row(item, 'a'), ...rows.slice(item)];
      growRanks(previous, rows, [{ key: itemRowsKey(row(item, 'a')), start: item, length: 1 }]);
    }
    const ranks = itemRanks(rows);
    const ranked = rows.map((entry) => ranks.rank(itemRowsKey(entry)));
    expect(ranked).toEqual([...ranked].sort((a, b) => a - b));
    expect(new Set(ranked).size).toBe(rows.length);
  });
});
