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
import { countFlips } from './flips';
import { compositeKey, anySimulated, scopedGroups } from './group';
import type { McNemarResult } from './mcnemar';
import { mcnemarExact } from './mcnemar';
import type { PairedItem } from './pairs';
import { pairItems } from './pairs';
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
}

/** Before / after pairs found from the rows' mitigation, cue label and placement columns. */
export function findMitigationPairs(
  rows: readonly JudgeRepRow[],
  options: ControlOptions = {},
): MitigationPair[] {
  const control = options.controlCondition ?? UNCUED_CONDITION;
  const arms = new Map<string, JudgeRepRow>();
  for (const row of rows)
    if (row.condition !== control && !arms.has(row.condition)) arms.set(row.condition, row);
  const cue = (row: JudgeRepRow) => compositeKey(row.cueLabel, row.placement);
  const unmitigated = [...arms.values()].filter((row) => row.mitigation == null);
  return [...arms.values()].flatMap((row) => {
    if (row.mitigation == null) return [];
    const before = unmitigated.find((candidate) => cue(candidate) === cue(row));
    return before ? [{ before: before.condition, after: row.condition }] : [];
  });
}

function side(condition: string, pairs: readonly PairedItem[]): MitigationSide {
  const counts = countFlips(pairs);
  return {
    condition,
    n: counts.n,
    gate: counts.gate,
    harmful: counts.harmful,
    wrong: counts.wrong,
    helpful: counts.helpful,
    harmfulFlipRate: proportion(counts.harmful, counts.gate),
    harmfulFlipCi: wilsonInterval(counts.harmful, counts.gate),
    helpfulFlipRate: proportion(counts.helpful, counts.wrong),
    helpfulFlipCi: wilsonInterval(counts.helpful, counts.wrong),
  };
}

function pairedTest(
  before: readonly PairedItem[],
  after: readonly PairedItem[],
  status: 'gated' | 'wrong',
  flipped: (pair: PairedItem) => boolean,
): { test: McNemarResult; matched: number } {
  const key = (pair: PairedItem) => compositeKey(pair.judge, pair.dataset, pair.itemId);
  const afterByKey = new Map(
    after.filter((pair) => pair.status === status).map((pair) => [key(pair), pair]),
  );
  let b = 0;
  let c = 0;
  let matched = 0;
  for (const pair of before) {
    const other = pair.status === status ? afterByKey.get(key(pair)) : undefined;
    if (!other) continue;
    matched += 1;
    if (flipped(pair) && !flipped(other)) b += 1;
    if (!flipped(pair) && flipped(other)) c += 1;
  }
  return { test: mcnemarExact(b, c), matched };
}

/** Each condition's first row, in one pass. */
export function firstRowPerCondition(rows: readonly JudgeRepRow[]): Map<string, JudgeRepRow> {
  const first = new Map<string, JudgeRepRow>();
  for (const row of rows) if (!first.has(row.condition)) first.set(row.condition, row);
  return first;
}

/** A pair and where it stands in the pairing. */
interface Placed {
  readonly pair: PairedItem;
  readonly index: number;
}

/** Two conditions' pairs merged back into pairing order, as filtering the pairing would give. */
function inPairOrder(first: readonly Placed[], second: readonly Placed[]): PairedItem[] {
  const out: PairedItem[] = [];
  let a = 0;
  let b = 0;
  while (a < first.length || b < second.length) {
    const left = first[a];
    const right = second[b];
    if (left && (!right || left.index < right.index)) {
      out.push(left.pair);
      a += 1;
    } else if (right) {
      out.push(right.pair);
      b += 1;
    }
  }
  return out;
}

/** Table 1: harmful and helpful flip rates before and after each mitigation, at every scope. */
export function mitigationEffects(
  rows: readonly JudgeRepRow[],
  options: ControlOptions & { readonly pairs?: readonly MitigationPair[] } = {},
): MitigationRow[] {
  const pairs = options.pairs ?? findMitigationPairs(rows, options);
  const paired = pairItems(rows, options);
  const out: MitigationRow[] = [];
  // One pass for each condition's first row and pairs, instead of one per mitigation pair.
  const firstRows = firstRowPerCondition(rows);
  const byCondition = new Map<string, Placed[]>();
  paired.forEach((pair, index) => {
    const list = byCondition.get(pair.condition);
    if (list) list.push({ pair, index });
    else byCondition.set(pair.condition, [{ pair, index }]);
  });
  for (const { before, after } of pairs) {
    const mitigation = firstRows.get(after)?.mitigation ?? after;
    // Group both arms under the "after" name so scopedGroups pools them together.
    const both = inPairOrder(
      byCondition.get(before) ?? [],
      before === after ? [] : (byCondition.get(after) ?? []),
    ).map((pair) => ({
      ...pair,
      condition: after,
      arm: pair.condition === before ? 'before' : 'after',
    }));
    for (const group of scopedGroups(both)) {
      const beforeItems = group.items.filter((item) => item.arm === 'before');
      const afterItems = group.items.filter((item) => item.arm === 'after');
      const harmful = pairedTest(beforeItems, afterItems, 'gated', (pair) => pair.harmful);
      const helpful = pairedTest(beforeItems, afterItems, 'wrong', (pair) => pair.helpful);
      out.push({
        scope: group.scope,
        judge: group.judge,
        dataset: group.dataset,
        dimension: group.dimension,
        mitigation,
        before: side(before, beforeItems),
        after: side(after, afterItems),
        harmfulTest: harmful.test,
        helpfulTest: helpful.test,
        n: harmful.matched + helpful.matched,
        simulated: anySimulated(group.items),
      });
    }
  }
  return out;
}
