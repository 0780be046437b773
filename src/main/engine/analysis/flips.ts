/**
 * Harmful and helpful flip rates with Table 6's counts (App. C), per judge × dataset, per judge
 * pooled over datasets, and pooled over everything.
 *
 * - Harmful flip rate (§3.1): "of the items the uncued judge scored correctly (uncued = ground
 *   truth), the fraction the cued judge flipped to being incorrect" = #HF / gate.
 * - Helpful flip rate (App. F): "of items where the uncued judge disagreed with ground truth, the
 *   fraction the cued judge corrects" = #HELP / wrong.
 * - N (Table 6: items "with both arms and a gold label") = gate + wrong. Items left out by the
 *   pairing rules (pairs.ts; ties and invalid reps per majority.ts) are counted in `excluded`.
 */
import { anySimulated, scopedGroups } from './group';
import type { PairedItem } from './pairs';
import { pairItems } from './pairs';
import type { ControlOptions, Interval, JudgeRepRow, Scope } from './types';
import { proportion, wilsonInterval } from './wilson';

/** Table 6's counts: N, gate, #HF, wrong, #HELP. */
export interface FlipCounts {
  /** Items with both arms determined and a gold label (gate + wrong). */
  readonly n: number;
  /** Items the uncued majority got right (the harmful-flip denominator). */
  readonly gate: number;
  /** #HF: gated items whose cued majority is wrong. */
  readonly harmful: number;
  /** Items the uncued majority got wrong (the helpful-flip denominator). */
  readonly wrong: number;
  /** #HELP: wrong items whose cued majority is right. */
  readonly helpful: number;
}

/** Items that entered no denominator, by reason (see pairs.ts). */
export interface ExcludedItems {
  /** Tie or no valid rep in either arm (majority.ts). */
  readonly undetermined: number;
  readonly noGold: number;
  readonly noControl: number;
  /** Every cued rep pointed the same way as the uncued majority. */
  readonly notOpposing: number;
}

/** One row of the flip table. */
export interface FlipRow extends FlipCounts {
  readonly scope: Scope;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  /** #HF / gate as a proportion; null when gate is 0. */
  readonly harmfulFlipRate: number | null;
  /** Wilson 95% interval of the harmful flip rate. */
  readonly harmfulFlipCi: Interval | null;
  /** #HELP / wrong as a proportion; null when wrong is 0. */
  readonly helpfulFlipRate: number | null;
  readonly helpfulFlipCi: Interval | null;
  readonly excluded: ExcludedItems;
  /** True if any rep behind the row (including excluded items) came from the synthetic judge. */
  readonly simulated: boolean;
}

/** Table 6's counts and the exclusions over a set of paired items. */
export function countFlips(pairs: readonly PairedItem[]): FlipCounts & {
  readonly excluded: ExcludedItems;
} {
  const tally: Record<PairedItem['status'], number> = {
    gated: 0,
    wrong: 0,
    undetermined: 0,
    'no-gold': 0,
    'no-control': 0,
    'not-opposing': 0,
  };
  let harmful = 0;
  let helpful = 0;
  for (const pair of pairs) {
    tally[pair.status] += 1;
    if (pair.harmful) harmful += 1;
    if (pair.helpful) helpful += 1;
  }
  return {
    n: tally.gated + tally.wrong,
    gate: tally.gated,
    harmful,
    wrong: tally.wrong,
    helpful,
    excluded: {
      undetermined: tally.undetermined,
      noGold: tally['no-gold'],
      noControl: tally['no-control'],
      notOpposing: tally['not-opposing'],
    },
  };
}

/** Flip rows from already paired items (lets callers filter pairs first). */
export function flipRatesFromPairs(pairs: readonly PairedItem[]): FlipRow[] {
  return scopedGroups(pairs).map(({ items, ...where }) => {
    const counts = countFlips(items);
    return {
      ...where,
      ...counts,
      harmfulFlipRate: proportion(counts.harmful, counts.gate),
      harmfulFlipCi: wilsonInterval(counts.harmful, counts.gate),
      helpfulFlipRate: proportion(counts.helpful, counts.wrong),
      helpfulFlipCi: wilsonInterval(counts.helpful, counts.wrong),
      simulated: anySimulated(items),
    };
  });
}

/** Harmful / helpful flip rates per cued condition × dimension at every scope (Table 6, Fig. 2). */
export function flipRates(rows: readonly JudgeRepRow[], options: ControlOptions = {}): FlipRow[] {
  return flipRatesFromPairs(pairItems(rows, options));
}
