/** Grouping helpers shared by the analysis modules (internal). */
import type { Scope } from './types';

/** A stable composite key for a tuple of fields (NUL-separated; null and undefined as SOH). */
export function compositeKey(...parts: readonly (string | number | null | undefined)[]): string {
  return parts
    .map((part) => (part === null || part === undefined ? '\u0001' : String(part)))
    .join('\u0000');
}

/** Groups items by key, keeping the order in which keys first appear. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** True if any row behind a result came from the synthetic judge. */
export function anySimulated(rows: readonly { readonly simulated: boolean }[]): boolean {
  return rows.some((row) => row.simulated);
}

/** Sum of a numeric field. */
export function sumOf<T>(items: readonly T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}

/** The fields a pooled summary is keyed by. */
export interface ScopedFields {
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string;
  readonly dataset: string;
}

/** One pool of items: a judge on a dataset, a judge over all datasets, or everything. */
export interface ScopedGroup<T> {
  readonly scope: Scope;
  readonly condition: string;
  readonly dimension: string;
  /** null when pooled over judges. */
  readonly judge: string | null;
  /** null when pooled over datasets. */
  readonly dataset: string | null;
  readonly items: readonly T[];
}

/**
 * Pools items per condition × dimension at each scope: every judge × dataset, then every judge
 * pooled over datasets, then all judges and datasets together (pooled over items, as Table 5 sums
 * Table 6). Order follows first appearance in the input.
 */
export function scopedGroups<T extends ScopedFields>(items: readonly T[]): ScopedGroup<T>[] {
  const out: ScopedGroup<T>[] = [];
  for (const arm of groupBy(items, (item) =>
    compositeKey(item.condition, item.dimension),
  ).values()) {
    const { condition, dimension } = arm[0] as T;
    const common = { condition, dimension };
    for (const cell of groupBy(arm, (item) => compositeKey(item.judge, item.dataset)).values()) {
      const { judge, dataset } = cell[0] as T;
      out.push({ scope: 'judge-dataset', ...common, judge, dataset, items: cell });
    }
    for (const pool of groupBy(arm, (item) => item.judge).values()) {
      out.push({
        scope: 'judge',
        ...common,
        judge: (pool[0] as T).judge,
        dataset: null,
        items: pool,
      });
    }
    out.push({ scope: 'all', ...common, judge: null, dataset: null, items: arm });
  }
  return out;
}
