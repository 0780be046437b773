/**
 * Mitigations: harmful and helpful flip rates before and after (§3.4, Table 1: "We report each
 * mitigation's harmful flip rate and helpful flip rate before and after the mitigation is
 * applied"; Table 1 is pooled over the five datasets for one judge).
 *
 * "Before" is the cued arm without the mitigation, "after" the same cue with it; both are paired
 * with the one unmitigated control arm (study-spec.ts: the uncued control plus cues × placements ×
 * mitigation sets), so the gate is shared. Without explicit `pairs`, each condition whose rows name
 * a mitigation is paired with the unmitigated cued condition of the same cue label and placement.
 * Rates use each arm's own items (as in the flip table); the exact McNemar tests use the items
 * determined in both arms: harmful flips on the gated ones, helpful flips on the wrong ones.
 */
import type { FlipCounts } from './flips';
import { compositeKey } from './group';
import type { McNemarResult } from './mcnemar';
import { mcnemarExact } from './mcnemar';
import type { PairedItem } from './pairs';
import { pairItems } from './pairs';
import { newcombePairedDifference, type PairedDifference } from './paired-difference';
import { rowFacts } from './row-facts';
import { TABLE_6_LEVELS, scopedTally, type TallySpec, type TallyUnit } from './scoped-tally';
import type { ControlOptions, Interval, JudgeRepRow, Scope } from './types';
import { UNCUED_CONDITION } from './types';
import { proportion, wilsonInterval } from './wilson';

/** A before / after pair of cued conditions. */
export interface MitigationPair {
  readonly before: string;
  readonly after: string;
}

/** One arm's flip counts and rates. */
export interface MitigationSide extends FlipCounts {
  readonly condition: string;
  readonly harmfulFlipRate: number | null;
  readonly harmfulFlipCi: Interval | null;
  readonly helpfulFlipRate: number | null;
  readonly helpfulFlipCi: Interval | null;
}

/** One Table 1 row (per judge pooled over datasets, per judge × dataset, or everything). */
export interface MitigationRow {
  readonly scope: Scope;
  readonly judge: string | null;
  readonly dataset: string | null;
  readonly dimension: string;
  /** The mitigation named on the "after" arm's rows (or its condition name). */
  readonly mitigation: string;
  readonly before: MitigationSide;
  readonly after: MitigationSide;
  /** Exact McNemar on items gated in both arms: b = flipped before only, c = after only. */
  readonly harmfulTest: McNemarResult;
  /** Exact McNemar on items wrong in both arms: b = corrected before only, c = after only. */
  readonly helpfulTest: McNemarResult;
  /** Items determined in both arms. */
  readonly n: number;
  readonly simulated: boolean;
  /** Harmful flip rate before − after on the items gated in both arms, Newcombe's interval. */
  readonly harmfulDifference: PairedDifference | null;
  /** Helpful flip rate before − after on the items wrong in both arms, Newcombe's interval. */
  readonly helpfulDifference: PairedDifference | null;
}

/** Before / after pairs found from the rows' mitigation, cue label and placement columns. */
export function findMitigationPairs(
  rows: readonly JudgeRepRow[],
  options: ControlOptions = {},
): MitigationPair[] {
  const control = options.controlCondition ?? UNCUED_CONDITION;
  const arms = new Map(rowFacts(rows).conditions);
  arms.delete(control);
  const cue = (row: JudgeRepRow) => compositeKey(row.cueLabel, row.placement);
  const unmitigated = [...arms.values()].filter((row) => row.mitigation == null);
  return [...arms.values()].flatMap((row) => {
    if (row.mitigation == null) return [];
    const before = unmitigated.find((candidate) => cue(candidate) === cue(row));
    return before ? [{ before: before.condition, after: row.condition }] : [];
  });
}

function side(condition: string, counts: readonly number[], at: number): MitigationSide {
  const [gate = 0, wrong = 0, harmful = 0, helpful = 0] = counts.slice(at, at + 4);
  return {
    condition,
    n: gate + wrong,
    gate,
    harmful,
    wrong,
    helpful,
    harmfulFlipRate: proportion(harmful, gate),
    harmfulFlipCi: wilsonInterval(harmful, gate),
    helpfulFlipRate: proportion(helpful, wrong),
    helpfulFlipCi: wilsonInterval(helpful, wrong),
  };
}

/** One item's before and after pair of one mitigation pair, judge and dimension. */
interface MitigationUnit extends TallyUnit {
  /** Index of the mitigation pair: rows come out in the pairs' order. */
  readonly rank: number;
  readonly before: PairedItem | undefined;
  readonly after: PairedItem | undefined;
}

/**
 * Counter layout: each side's gate, wrong, #HF, #HELP; then each McNemar test's n, b and c; then
 * each test's items flipped in both arms (for the paired interval of the frontier figure).
 */
const AFTER = 4;
const HARMFUL_TEST = 8;
const HELPFUL_TEST = 11;
const BOTH = 14;

function countSide(pair: PairedItem | undefined, counters: number[], at: number): void {
  if (!pair) return;
  if (pair.status === 'gated') counters[at] = 1;
  if (pair.status === 'wrong') counters[at + 1] = 1;
  if (pair.harmful) counters[at + 2] = 1;
  if (pair.helpful) counters[at + 3] = 1;
}

/** Exact McNemar's counts for one item: determined (`status`) in both arms, flipped in one. */
function countTest(
  unit: MitigationUnit,
  status: 'gated' | 'wrong',
  flipped: (pair: PairedItem) => boolean,
  counters: number[],
  at: number,
): void {
  const { before, after } = unit;
  if (before?.status !== status || after?.status !== status) return;
  counters[at] = 1;
  if (flipped(before) && !flipped(after)) counters[at + 1] = 1;
  if (!flipped(before) && flipped(after)) counters[at + 2] = 1;
  if (flipped(before) && flipped(after)) counters[BOTH + (at === HARMFUL_TEST ? 0 : 1)] = 1;
}

/**
 * Table 1's counts as a tally (scoped-tally.ts) whose units join each item's before and after
 * pairs, so McNemar's b and c are counted item by item and a live refresh counts the batch.
 */
function mitigationTally(pairs: readonly MitigationPair[]): TallySpec<Scope, MitigationUnit> {
  return {
    id: `mitigations\u0000${JSON.stringify(pairs)}`,
    levels: TABLE_6_LEVELS,
    width: 16,
    armRank: (unit) => unit.rank,
    count: (unit, counters) => {
      countSide(unit.before, counters, 0);
      countSide(unit.after, counters, AFTER);
      countTest(unit, 'gated', (pair) => pair.harmful, counters, HARMFUL_TEST);
      countTest(unit, 'wrong', (pair) => pair.helpful, counters, HELPFUL_TEST);
    },
    units: (itemPairs) => {
      const units = new Map<string, { rank: number; before?: PairedItem; after?: PairedItem }>();
      // In pair order, so each unit sits where its first pair does.
      for (const pair of itemPairs)
        pairs.forEach(({ before, after }, rank) => {
          const arm =
            pair.condition === before ? 'before' : pair.condition === after ? 'after' : null;
          if (!arm) return;
          const key = compositeKey(rank, pair.judge, pair.dimension);
          const unit = units.get(key) ?? { rank };
          unit[arm] = pair;
          units.set(key, unit);
        });
      return [...units.values()].map(({ rank, before, after }) => {
        const { after: condition } = pairs[rank] as MitigationPair;
        const first = (before ?? after) as PairedItem;
        return {
          rank,
          before,
          after: condition === pairs[rank]?.before ? undefined : after,
          condition,
          dimension: first.dimension,
          judge: first.judge,
          dataset: first.dataset,
          simulated: Boolean(before?.simulated || after?.simulated),
        };
      });
    },
  };
}

/** Each condition's first row (row-facts.ts, counted once per row array). */
export function firstRowPerCondition(
  rows: readonly JudgeRepRow[],
): ReadonlyMap<string, JudgeRepRow> {
  return rowFacts(rows).conditions;
}

/** Table 1: harmful and helpful flip rates before and after each mitigation, at every scope. */
export function mitigationEffects(
  rows: readonly JudgeRepRow[],
  options: ControlOptions & { readonly pairs?: readonly MitigationPair[] } = {},
): MitigationRow[] {
  const pairs = options.pairs ?? findMitigationPairs(rows, options);
  if (pairs.length === 0) return [];
  const firstRows = firstRowPerCondition(rows);
  return scopedTally(pairItems(rows, options), mitigationTally(pairs)).map((group) => {
    const { before, after } = pairs.find(
      (pair) => pair.after === group.condition,
    ) as MitigationPair;
    const counts = group.counters;
    const [harmfulN = 0, harmfulB = 0, harmfulC = 0] = counts.slice(HARMFUL_TEST, HARMFUL_TEST + 3);
    const [helpfulN = 0, helpfulB = 0, helpfulC = 0] = counts.slice(HELPFUL_TEST, HELPFUL_TEST + 3);
    return {
      scope: group.scope,
      judge: group.judge,
      dataset: group.dataset,
      dimension: group.dimension,
      mitigation: firstRows.get(after)?.mitigation ?? after,
      before: side(before, counts, 0),
      after: side(after, counts, AFTER),
      harmfulTest: mcnemarExact(harmfulB, harmfulC),
      helpfulTest: mcnemarExact(helpfulB, helpfulC),
      n: harmfulN + helpfulN,
      simulated: group.simulatedPairs > 0,
      harmfulDifference: pairedOf(harmfulN, harmfulB, harmfulC, counts[BOTH] ?? 0),
      helpfulDifference: pairedOf(helpfulN, helpfulB, helpfulC, counts[BOTH + 1] ?? 0),
    };
  });
}

/** Before − after on paired items: `b` flipped before only, `c` after only, `both` in both. */
function pairedOf(n: number, b: number, c: number, both: number): PairedDifference | null {
  return newcombePairedDifference({
    both,
    firstOnly: b,
    secondOnly: c,
    neither: n - both - b - c,
  });
}
