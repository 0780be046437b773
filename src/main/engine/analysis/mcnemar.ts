/**
 * Exact McNemar test for two conditions judged on the same items (matched pairs). Only the
 * discordant pairs carry information: under the null each is equally likely to favour either
 * condition, so with b and c discordant pairs the two-sided p-value is
 * min(1, 2 · P[X ≤ min(b, c)]) for X ~ Binomial(b + c, 1/2).
 *
 * `compareConditions` scores each item by whether the arm's majority matches gold; cued arms go
 * through the same pairing as the flip rates (pairs.ts), the control arm is its own majority.
 * Restricting to the items the uncued judge got right (`'uncued-correct'`) compares harmful flips;
 * to the ones it got wrong (`'uncued-wrong'`), helpful flips.
 */
import { anySimulated, compositeKey, groupBy } from './group';
import { goldOf, majorityVote } from './majority';
import { pairItems } from './pairs';
import type { BinaryVerdict, ControlOptions, JudgeRepRow } from './types';
import { UNCUED_CONDITION } from './types';

/** The exact test's result. */
export interface McNemarResult {
  /** Pairs where the first condition is the "success" and the second not. */
  readonly b: number;
  /** Pairs where the second condition is the "success" and the first not. */
  readonly c: number;
  /** Discordant pairs (b + c). */
  readonly discordant: number;
  /** Two-sided exact p-value; 1 when there are no discordant pairs. */
  readonly pValue: number;
}

/** Exact two-sided McNemar test on discordant counts b and c. */
export function mcnemarExact(b: number, c: number): McNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new RangeError(`mcnemarExact needs whole non-negative counts, got ${b} and ${c}.`);
  }
  const n = b + c;
  const smaller = Math.min(b, c);
  // P[X ≤ smaller], summed in log space so large n does not underflow 0.5^n.
  let logTerm = -n * Math.LN2; // log C(n, 0) · 0.5^n
  let tail = 0;
  for (let k = 0; k <= smaller; k += 1) {
    tail += Math.exp(logTerm);
    logTerm += Math.log(n - k) - Math.log(k + 1);
  }
  return { b, c, discordant: n, pValue: Math.min(1, 2 * tail) };
}

/** Which items enter the comparison, by the control arm's correctness. */
export type ComparisonSubset = 'all' | 'uncued-correct' | 'uncued-wrong';

/** One comparison: condition A vs B on the items both have, scored by majority = gold. */
export interface ConditionComparisonRow extends McNemarResult {
  readonly scope: 'judge' | 'all';
  readonly judge: string | null;
  readonly dimension: string;
  readonly conditionA: string;
  readonly conditionB: string;
  readonly subset: ComparisonSubset;
  /** Items scored in both conditions (concordant and discordant). */
  readonly n: number;
  readonly bothCorrect: number;
  readonly bothWrong: number;
  readonly simulated: boolean;
}

interface Scored {
  readonly key: string;
  readonly judge: string;
  readonly dimension: string;
  readonly correct: boolean;
  readonly uncuedCorrect: boolean;
  readonly simulated: boolean;
}

function itemKey(row: { judge: string; dataset: string; itemId: string; dimension: string }) {
  return compositeKey(row.judge, row.dataset, row.itemId, row.dimension);
}

function scoreCondition(
  rows: readonly JudgeRepRow[],
  condition: string,
  control: string,
): Map<string, Scored> {
  const scored = new Map<string, Scored>();
  if (condition === control) {
    for (const reps of groupBy(
      rows.filter((row) => row.condition === control),
      itemKey,
    ).values()) {
      const first = reps[0] as JudgeRepRow;
      const gold = goldOf(reps);
      const verdict: BinaryVerdict | null = majorityVote(reps.map((rep) => rep.verdict)).verdict;
      if (gold === null || verdict === null) continue;
      const correct = verdict === gold;
      const entry = { key: itemKey(first), judge: first.judge, dimension: first.dimension };
      scored.set(entry.key, {
        ...entry,
        correct,
        uncuedCorrect: correct,
        simulated: anySimulated(reps),
      });
    }
    return scored;
  }
  const armRows = rows.filter((row) => row.condition === condition || row.condition === control);
  for (const pair of pairItems(armRows, { controlCondition: control })) {
    if (pair.status !== 'gated' && pair.status !== 'wrong') continue;
    const key = itemKey(pair);
    scored.set(key, {
      key,
      judge: pair.judge,
      dimension: pair.dimension,
      correct: pair.cued === pair.gold,
      uncuedCorrect: pair.status === 'gated',
      simulated: pair.simulated,
    });
  }
  return scored;
}

/** Exact McNemar comparison of two conditions per judge × dimension and pooled over judges. */
export function compareConditions(
  rows: readonly JudgeRepRow[],
  conditionA: string,
  conditionB: string,
  options: ControlOptions & { readonly subset?: ComparisonSubset } = {},
): ConditionComparisonRow[] {
  const control = options.controlCondition ?? UNCUED_CONDITION;
  const subset = options.subset ?? 'all';
  const scoredA = scoreCondition(rows, conditionA, control);
  const scoredB = scoreCondition(rows, conditionB, control);
  const matched = [...scoredA.values()].flatMap((a) => {
    const b = scoredB.get(a.key);
    if (!b) return [];
    if (subset === 'uncued-correct' && !a.uncuedCorrect) return [];
    if (subset === 'uncued-wrong' && a.uncuedCorrect) return [];
    return [
      { a, b, judge: a.judge, dimension: a.dimension, simulated: a.simulated || b.simulated },
    ];
  });
  const out: ConditionComparisonRow[] = [];
  for (const arm of groupBy(matched, (entry) => entry.dimension).values()) {
    const pools = [...groupBy(arm, (entry) => entry.judge).values()].map((pool) => ({
      scope: 'judge' as const,
      judge: pool[0]?.judge ?? null,
      pool,
    }));
    for (const { scope, judge, pool } of [
      ...pools,
      { scope: 'all' as const, judge: null, pool: arm },
    ]) {
      const count = (test: (a: boolean, b: boolean) => boolean) =>
        pool.filter((entry) => test(entry.a.correct, entry.b.correct)).length;
      out.push({
        scope,
        judge,
        dimension: (arm[0] as (typeof arm)[number]).dimension,
        conditionA,
        conditionB,
        subset,
        n: pool.length,
        bothCorrect: count((a, b) => a && b),
        bothWrong: count((a, b) => !a && !b),
        ...mcnemarExact(
          count((a, b) => a && !b),
          count((a, b) => !a && b),
        ),
        simulated: anySimulated(pool),
      });
    }
  }
  return out;
}
