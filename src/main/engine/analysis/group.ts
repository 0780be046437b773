/** Grouping helpers shared by the analysis modules (internal). */

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
