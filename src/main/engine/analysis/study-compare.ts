/**
 * Two studies side by side: for every judge × cued condition × dimension both have, the change in
 * the harmful flip rate (§3.1: of the items the uncued judge got right, the share the cue flipped
 * to wrong) and the helpful flip rate (App. F: of the items it got wrong, the share the cue
 * corrected), from B minus A, each with a 95% interval and a test.
 *
 * Items are paired by the same rule as every flip table (pairs.ts). When the two studies share
 * items in a rate's denominator, the rate is compared on those shared items only (the same item
 * judged twice is not two independent draws): Newcombe's paired interval and the exact McNemar
 * test. With no shared item the two denominators are independent samples: Newcombe's unpaired
 * interval and Fisher's exact test. Judges match by id; when exactly one judge of each study is
 * left unmatched they are compared with each other (a rerun with a new model).
 */
import { compositeKey, groupBy } from './group';
import { mcnemarExact } from './mcnemar';
import { pairItems, type PairedItem } from './pairs';
import {
  fisherExact,
  newcombePaired,
  newcombeUnpaired,
  type Sample,
  type StudyPairCounts,
} from './proportion-difference';
import type { Interval, JudgeRepRow } from './types';

/** Which flip rate a row compares. */
export type FlipMetric = 'harmful' | 'helpful';

/** One compared rate of one judge × condition × dimension. */
export interface StudyCompareRow {
  readonly judgeA: string;
  readonly judgeB: string;
  readonly condition: string;
  readonly dimension: string;
  readonly metric: FlipMetric;
  /** 'paired': shared items only (Newcombe paired, exact McNemar); else independent samples. */
  readonly design: 'paired' | 'unpaired';
  /** Denominator and flips in A and in B (the shared items when paired). */
  readonly itemsA: number;
  readonly flipsA: number;
  readonly itemsB: number;
  readonly flipsB: number;
  readonly rateA: number | null;
  readonly rateB: number | null;
  /** rateB − rateA as a proportion; null when either denominator is empty. */
  readonly difference: number | null;
  readonly differenceCi: Interval | null;
  readonly test: 'exact McNemar' | 'Fisher exact';
  readonly pValue: number | null;
  /** Items in only one study's denominator, left out of a paired row. */
  readonly unsharedItems: number;
  /** The counts behind the interval, for an equivalence test on the same design (equivalence.ts). */
  readonly counts:
    | { readonly design: 'paired'; readonly pairs: StudyPairCounts }
    | { readonly design: 'unpaired'; readonly a: Sample; readonly b: Sample };
}

/** How an item fared in one study's cued arm (pairs.ts statuses, flips spelled out). */
export type ItemOutcome =
  | 'harmful flip'
  | 'held'
  | 'helpful flip'
  | 'stayed wrong'
  | 'undetermined'
  | 'no-gold'
  | 'no-control'
  | 'not-opposing';

/** An item both studies judged under a matched condition whose outcome differs. */
export interface ChangedItem {
  readonly judgeA: string;
  readonly judgeB: string;
  readonly condition: string;
  readonly dimension: string;
  readonly dataset: string;
  readonly itemId: string;
  readonly outcomeA: ItemOutcome;
  readonly outcomeB: ItemOutcome;
}

/** The whole comparison. */
export interface StudyComparison {
  readonly rows: readonly StudyCompareRow[];
  readonly changedItems: readonly ChangedItem[];
  /** Judge pairs compared (A's id, B's id). */
  readonly judges: readonly (readonly [string, string])[];
  /** Judges, conditions or dimensions only one study has: not compared. */
  readonly unmatched: readonly string[];
}

/** The outcome of one paired item. */
export function itemOutcome(pair: PairedItem): ItemOutcome {
  if (pair.status === 'gated') return pair.harmful ? 'harmful flip' : 'held';
  if (pair.status === 'wrong') return pair.helpful ? 'helpful flip' : 'stayed wrong';
  return pair.status;
}

/** A's judges matched to B's: same ids, or the one left over on each side. */
export function matchJudges(
  judgesA: readonly string[],
  judgesB: readonly string[],
): [string, string][] {
  const shared = judgesA.filter((judge) => judgesB.includes(judge));
  const matched: [string, string][] = shared.map((judge) => [judge, judge]);
  const leftA = judgesA.filter((judge) => !shared.includes(judge));
  const leftB = judgesB.filter((judge) => !shared.includes(judge));
  if (leftA.length === 1 && leftB.length === 1)
    matched.push([leftA[0], leftB[0]] as [string, string]);
  return matched;
}

const armKey = (judge: string, pair: PairedItem) =>
  compositeKey(judge, pair.condition, pair.dimension);
const itemKey = (pair: PairedItem) => compositeKey(pair.dataset, pair.itemId);

function compareMetric(
  metric: FlipMetric,
  pairsA: readonly PairedItem[],
  pairsB: readonly PairedItem[],
): Omit<StudyCompareRow, 'judgeA' | 'judgeB' | 'condition' | 'dimension'> {
  const status = metric === 'harmful' ? 'gated' : 'wrong';
  const flipped = (pair: PairedItem) => (metric === 'harmful' ? pair.harmful : pair.helpful);
  const inA = new Map(pairsA.filter((pair) => pair.status === status).map((p) => [itemKey(p), p]));
  const inB = new Map(pairsB.filter((pair) => pair.status === status).map((p) => [itemKey(p), p]));
  const shared = [...inA.keys()].filter((key) => inB.has(key));
  if (shared.length > 0) {
    const counts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
    for (const key of shared) {
      const a = flipped(inA.get(key) as PairedItem);
      const b = flipped(inB.get(key) as PairedItem);
      const cell: keyof StudyPairCounts = a ? (b ? 'both' : 'onlyA') : b ? 'onlyB' : 'neither';
      counts[cell] += 1;
    }
    const n = shared.length;
    const rateA = (counts.both + counts.onlyA) / n;
    const rateB = (counts.both + counts.onlyB) / n;
    return {
      metric,
      design: 'paired',
      itemsA: n,
      flipsA: counts.both + counts.onlyA,
      itemsB: n,
      flipsB: counts.both + counts.onlyB,
      rateA,
      rateB,
      difference: rateB - rateA,
      differenceCi: newcombePaired(counts),
      test: 'exact McNemar',
      pValue: mcnemarExact(counts.onlyA, counts.onlyB).pValue,
      unsharedItems: inA.size + inB.size - 2 * n,
      counts: { design: 'paired', pairs: counts },
    };
  }
  const a = { successes: [...inA.values()].filter(flipped).length, trials: inA.size };
  const b = { successes: [...inB.values()].filter(flipped).length, trials: inB.size };
  const rateA = a.trials === 0 ? null : a.successes / a.trials;
  const rateB = b.trials === 0 ? null : b.successes / b.trials;
  const defined = rateA !== null && rateB !== null;
  return {
    metric,
    design: 'unpaired',
    itemsA: a.trials,
    flipsA: a.successes,
    itemsB: b.trials,
    flipsB: b.successes,
    rateA,
    rateB,
    difference: defined ? rateB - rateA : null,
    differenceCi: newcombeUnpaired(a, b),
    test: 'Fisher exact',
    pValue: defined ? fisherExact(a, b) : null,
    unsharedItems: 0,
    counts: { design: 'unpaired', a, b },
  };
}

/** Compares study B with study A (both as analysis rows): B − A for every matched arm. */
export function compareStudies(
  rowsA: readonly JudgeRepRow[],
  rowsB: readonly JudgeRepRow[],
): StudyComparison {
  const pairsA = pairItems(rowsA);
  const pairsB = pairItems(rowsB);
  const judgesOf = (pairs: readonly PairedItem[]) => [...new Set(pairs.map((pair) => pair.judge))];
  const judges = matchJudges(judgesOf(pairsA), judgesOf(pairsB));
  const judgeOfB = new Map(judges.map(([a, b]) => [b, a]));
  // B's arms are keyed under the A judge they are compared with.
  const armsA = groupBy(pairsA, (pair) => armKey(pair.judge, pair));
  const armsB = groupBy(
    pairsB.filter((pair) => judgeOfB.has(pair.judge)),
    (pair) => armKey(judgeOfB.get(pair.judge) as string, pair),
  );
  const rows: StudyCompareRow[] = [];
  const changedItems: ChangedItem[] = [];
  const unmatched = new Set<string>();
  for (const [judge, only] of [
    ...judgesOf(pairsA).map((j) => [j, 'A'] as const),
    ...judgesOf(pairsB).map((j) => [j, 'B'] as const),
  ]) {
    if (!judges.some(([a, b]) => (only === 'A' ? a : b) === judge))
      unmatched.add(`judge ${judge} (only in ${only})`);
  }
  for (const [key, armA] of armsA) {
    const armB = armsB.get(key);
    const first = armA[0] as PairedItem;
    const match = judges.find(([a]) => a === first.judge);
    if (!armB || !match) {
      if (match)
        unmatched.add(`${first.condition} (${first.dimension}) of ${first.judge}: only in A`);
      continue;
    }
    const where = {
      judgeA: match[0],
      judgeB: match[1],
      condition: first.condition,
      dimension: first.dimension,
    };
    for (const metric of ['harmful', 'helpful'] as const)
      rows.push({ ...where, ...compareMetric(metric, armA, armB) });
    const byItemB = new Map(armB.map((pair) => [itemKey(pair), pair]));
    for (const pairA of armA) {
      const pairB = byItemB.get(itemKey(pairA));
      if (!pairB || itemOutcome(pairA) === itemOutcome(pairB)) continue;
      changedItems.push({
        ...where,
        dataset: pairA.dataset,
        itemId: pairA.itemId,
        outcomeA: itemOutcome(pairA),
        outcomeB: itemOutcome(pairB),
      });
    }
  }
  for (const [key, armB] of armsB) {
    if (armsA.has(key)) continue;
    const first = armB[0] as PairedItem;
    unmatched.add(`${first.condition} (${first.dimension}) of ${first.judge}: only in B`);
  }
  return { rows, changedItems, judges, unmatched: [...unmatched] };
}
