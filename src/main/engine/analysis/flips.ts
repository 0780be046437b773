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
import type { PairedItem } from './pairs';
import { pairItems } from './pairs';
import { TABLE_6_LEVELS, scopedTally, type TallySpec } from './scoped-tally';
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

const STATUS_COUNTER: Record<PairedItem['status'], number> = {
  gated: 0,
  wrong: 1,
  undetermined: 2,
  'no-gold': 3,
  'no-control': 4,
  'not-opposing': 5,
};

/** Table 6's pools (judge × dataset, judge, all), counted per status plus #HF and #HELP. */
const flipTally: TallySpec<Scope> = {
  id: 'flips',
  levels: TABLE_6_LEVELS,
  width: 8,
  count: (pair, counters) => {
    counters[STATUS_COUNTER[pair.status]] = 1;
    if (pair.harmful) counters[6] = 1;
    if (pair.helpful) counters[7] = 1;
  },
};

/**
 * Flip rows from already paired items (lets callers filter pairs first). The counts are kept
 * per pairing and carried over when the report cache grows it (scoped-tally.ts).
 */
export function flipRatesFromPairs(pairs: readonly PairedItem[]): readonly FlipRow[] {
  // Flips, ablation, placement and accuracy all read the same pairing's rows: derived once.
  const known = derived.get(pairs);
  if (known) return known;
  const rows = deriveFlipRows(pairs);
  derived.set(pairs, rows);
  return rows;
}

const derived = new WeakMap<readonly PairedItem[], readonly FlipRow[]>();

function deriveFlipRows(pairs: readonly PairedItem[]): FlipRow[] {
  return scopedTally(pairs, flipTally).map(({ counters, simulatedPairs, ...where }) => {
    const [gated = 0, wrong = 0, undetermined = 0, noGold = 0, noControl = 0, notOpposing = 0] =
      counters;
    const harmful = counters[6] ?? 0;
    const helpful = counters[7] ?? 0;
    return {
      ...where,
      n: gated + wrong,
      gate: gated,
      harmful,
      wrong,
      helpful,
      excluded: { undetermined, noGold, noControl, notOpposing },
      harmfulFlipRate: proportion(harmful, gated),
      harmfulFlipCi: wilsonInterval(harmful, gated),
      helpfulFlipRate: proportion(helpful, wrong),
      helpfulFlipCi: wilsonInterval(helpful, wrong),
      simulated: simulatedPairs > 0,
    };
  });
}

/** Harmful / helpful flip rates per cued condition × dimension at every scope (Table 6, Fig. 2). */
export function flipRates(
  rows: readonly JudgeRepRow[],
  options: ControlOptions = {},
): readonly FlipRow[] {
  return flipRatesFromPairs(pairItems(rows, options));
}
