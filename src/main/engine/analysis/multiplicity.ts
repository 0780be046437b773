/**
 * Multiple-comparison adjustment across a condition grid. A study compares many arms at once
 * (every mitigation × cue × placement, each at several scopes), so a raw p < 0.05 somewhere is
 * expected by chance; the tables show the raw p beside a Holm-adjusted one (Holm 1979), which
 * controls the family-wise error rate without assuming the tests are independent.
 */

/** The method's name as table headers and notes print it. */
export const HOLM_METHOD = 'Holm';

/**
 * Holm's step-down adjustment: sort the m p-values ascending, multiply the i-th smallest
 * (1-based) by m − i + 1, carry the running maximum so adjusted values keep their order, and cap
 * at 1. Nulls (tests that could not be run) are not in the family and stay null; the result is in
 * the input's order.
 */
export function holmAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  const present = pValues.flatMap((value, index) => {
    if (value === null) return [];
    if (!(value >= 0 && value <= 1))
      throw new RangeError(`A p-value must lie in [0, 1], got ${value}.`);
    return [{ value, index }];
  });
  present.sort((a, b) => a.value - b.value || a.index - b.index);
  const adjusted: (number | null)[] = pValues.map(() => null);
  const size = present.length;
  let runningMax = 0;
  present.forEach(({ value, index }, rank) => {
    runningMax = Math.max(runningMax, Math.min(1, (size - rank) * value));
    adjusted[index] = runningMax;
  });
  return adjusted;
}

/**
 * Holm-adjusts each family separately: `familyOf` names the family of each entry (e.g. one scope
 * of one judge and dataset, one kind of test), entries of other families do not count toward m.
 */
export function holmAdjustWithin<T>(
  entries: readonly T[],
  pValueOf: (entry: T) => number | null,
  familyOf: (entry: T) => string,
): (number | null)[] {
  const families = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    const family = familyOf(entry);
    const members = families.get(family);
    if (members) members.push(index);
    else families.set(family, [index]);
  });
  const adjusted: (number | null)[] = entries.map(() => null);
  for (const members of families.values()) {
    const values = holmAdjust(members.map((index) => pValueOf(entries[index] as T)));
    members.forEach((index, position) => (adjusted[index] = values[position] ?? null));
  }
  return adjusted;
}

/** The false-discovery-rate method's name as headers print it. */
export const BH_METHOD = 'BH';

/**
 * Benjamini–Hochberg's step-up adjustment (1995), for large grids (cue axes, placements) where
 * controlling the false-discovery rate is the aim rather than any single false positive: sort
 * the m p-values ascending, the i-th smallest (1-based) becomes min over j ≥ i of m · p_j / j,
 * capped at 1. Nulls stay null and are not in the family; the result is in the input's order.
 * Valid for independent or positively dependent tests.
 */
export function benjaminiHochbergAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  const present = pValues.flatMap((value, index) => {
    if (value === null) return [];
    if (!(value >= 0 && value <= 1))
      throw new RangeError(`A p-value must lie in [0, 1], got ${value}.`);
    return [{ value, index }];
  });
  present.sort((a, b) => a.value - b.value || a.index - b.index);
  const adjusted: (number | null)[] = pValues.map(() => null);
  const size = present.length;
  let runningMin = 1;
  for (let rank = size - 1; rank >= 0; rank -= 1) {
    const { value, index } = present[rank] as { value: number; index: number };
    runningMin = Math.min(runningMin, (size * value) / (rank + 1));
    adjusted[index] = runningMin;
  }
  return adjusted;
}

/** benjaminiHochbergAdjust per family, as holmAdjustWithin. */
export function benjaminiHochbergWithin<T>(
  entries: readonly T[],
  pValueOf: (entry: T) => number | null,
  familyOf: (entry: T) => string,
): (number | null)[] {
  const families = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    const members = families.get(familyOf(entry));
    if (members) members.push(index);
    else families.set(familyOf(entry), [index]);
  });
  const adjusted: (number | null)[] = entries.map(() => null);
  for (const members of families.values()) {
    const values = benjaminiHochbergAdjust(members.map((index) => pValueOf(entries[index] as T)));
    members.forEach((index, position) => (adjusted[index] = values[position] ?? null));
  }
  return adjusted;
}
