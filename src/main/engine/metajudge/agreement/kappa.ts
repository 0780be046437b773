/**
 * Chance-corrected agreement for nominal labels, as App. P reports it: Cohen's κ for a pair of
 * raters (Cohen 1960) and Fleiss' κ for a fixed number of raters per subject (Fleiss 1971).
 * Pure functions; checked against published worked examples in test/unit/agreement-kappa.test.ts.
 *
 * κ = (p_o − p_e) / (1 − p_e). When p_e = 1 (every rating in one category) κ is undefined and
 * returned as null.
 */

/** Cohen's κ with its parts. */
export interface CohenKappa {
  /** null when undefined (no pairs, or chance agreement 1). */
  kappa: number | null;
  /** Observed agreement p_o. */
  observed: number;
  /** Chance agreement p_e from each rater's own marginals. */
  expected: number;
  /** Pairs rated by both. */
  n: number;
}

function kappaOf(observed: number, expected: number): number | null {
  return expected >= 1 ? null : (observed - expected) / (1 - expected);
}

/**
 * Cohen's κ of two raters over the same subjects, position by position. A subject either rater
 * left unlabelled (null) is skipped.
 */
export function cohenKappa(
  first: readonly (string | null)[],
  second: readonly (string | null)[],
): CohenKappa {
  if (first.length !== second.length)
    throw new Error(`cohenKappa needs equal lengths, got ${first.length} and ${second.length}.`);
  const pairs: [string, string][] = [];
  first.forEach((label, index) => {
    const other = second[index];
    if (label !== null && other !== null && other !== undefined) pairs.push([label, other]);
  });
  const n = pairs.length;
  if (n === 0) return { kappa: null, observed: 0, expected: 0, n };
  const firstCounts = new Map<string, number>();
  const secondCounts = new Map<string, number>();
  let agree = 0;
  for (const [a, b] of pairs) {
    firstCounts.set(a, (firstCounts.get(a) ?? 0) + 1);
    secondCounts.set(b, (secondCounts.get(b) ?? 0) + 1);
    if (a === b) agree += 1;
  }
  let expected = 0;
  for (const [label, count] of firstCounts)
    expected += (count / n) * ((secondCounts.get(label) ?? 0) / n);
  const observed = agree / n;
  return { kappa: kappaOf(observed, expected), observed, expected, n };
}

/**
 * Cohen's κ from a square contingency table: `table[i][j]` subjects the first rater put in
 * category i and the second in category j.
 */
export function cohenKappaFromTable(table: readonly (readonly number[])[]): CohenKappa {
  const first: string[] = [];
  const second: string[] = [];
  table.forEach((row, i) =>
    row.forEach((count, j) => {
      for (let k = 0; k < count; k += 1) {
        first.push(String(i));
        second.push(String(j));
      }
    }),
  );
  return cohenKappa(first, second);
}

/** Fleiss' κ with its parts (Fleiss 1971's notation). */
export interface FleissKappa {
  kappa: number | null;
  /** P̄: mean over subjects of the proportion of agreeing rater pairs. */
  observed: number;
  /** P̄e: Σ p_j², chance agreement from the pooled category proportions. */
  expected: number;
  /** p_j per category (column order). */
  categoryProportions: number[];
  /** P_i per subject. */
  subjectAgreement: number[];
  subjects: number;
  raters: number;
}

/**
 * Fleiss' κ from counts: `counts[i][j]` raters who put subject i in category j. Every subject
 * must have the same number of raters, at least two.
 */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissKappa {
  const subjects = counts.length;
  const raters = counts[0]?.reduce((sum, value) => sum + value, 0) ?? 0;
  const categories = Math.max(0, ...counts.map((row) => row.length));
  if (subjects === 0 || raters < 2)
    return {
      kappa: null,
      observed: 0,
      expected: 0,
      categoryProportions: [],
      subjectAgreement: [],
      subjects,
      raters,
    };
  counts.forEach((row, index) => {
    const total = row.reduce((sum, value) => sum + value, 0);
    if (total !== raters)
      throw new Error(
        `Fleiss' κ needs ${raters} ratings per subject; subject ${index + 1} has ${total}.`,
      );
  });
  const categoryProportions = Array.from(
    { length: categories },
    (_, j) => counts.reduce((sum, row) => sum + (row[j] ?? 0), 0) / (subjects * raters),
  );
  const subjectAgreement = counts.map(
    (row) =>
      (row.reduce((sum, value) => sum + value * value, 0) - raters) / (raters * (raters - 1)),
  );
  const observed = subjectAgreement.reduce((sum, value) => sum + value, 0) / subjects;
  const expected = categoryProportions.reduce((sum, value) => sum + value * value, 0);
  return {
    kappa: kappaOf(observed, expected),
    observed,
    expected,
    categoryProportions,
    subjectAgreement,
    subjects,
    raters,
  };
}

/** Fleiss' κ from each subject's labels (one per rater; the same number for every subject). */
export function fleissKappaFromLabels(subjects: readonly (readonly string[])[]): FleissKappa {
  const categories = [...new Set(subjects.flat())].sort();
  return fleissKappa(
    subjects.map((labels) =>
      categories.map((category) => labels.filter((label) => label === category).length),
    ),
  );
}
