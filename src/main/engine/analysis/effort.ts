/**
 * Effort: harmful flip rate by turns taken on the cued arm (§3.1 Fig. 3; App. L).
 *
 * App. L: "we use the fixed bin edges 1 – 3, 4 – 6, 7 – 10, 11 – 15, 16 – 25, and 26+ turns (the
 * last merged into the 16 – 25 marker), and plot only bins with at least 15 gold-gated cued reps"
 * (EFFORT_BIN_EDGES, EFFORT_MIN_REPS_PER_BIN); "The reported Pearson r is computed over the raw
 * per-rep points (turns, flipped ∈ {0, 1}) before binning, so it uses every rep regardless of the
 * bin floor." Table 9 counts reps, not items: every cued rep of a gated item (uncued majority =
 * gold, pairs.ts) is one point, flipped when its own verdict ≠ gold. Reps with no valid verdict,
 * no turn count, or a turn count outside every bin are left out and counted.
 */
import { EFFORT_BIN_EDGES, EFFORT_MIN_REPS_PER_BIN } from '../paper';
import { anySimulated, compositeKey, groupBy } from './group';
import type { PairedItem } from './pairs';
import { pairItems } from './pairs';
import type { ControlOptions, Interval, JudgeRepRow } from './types';
import { proportion, wilsonInterval } from './wilson';

/**
 * A plotted bin, inclusive; `high` null = open-ended. A merged bin keeps its marker's label (App. L
 * plots 26+ at the 16–25 marker, so that bin is labelled 16–25 with no upper edge).
 */
export interface TurnBin {
  readonly label: string;
  readonly low: number;
  readonly high: number | null;
}

/** One bin's reps. Hidden bins keep their counts but report no rate. */
export interface EffortBin extends TurnBin {
  /** Gold-gated cued reps in the bin. */
  readonly n: number;
  readonly harmfulFlips: number;
  /** Null when the bin is hidden or empty. */
  readonly harmfulFlipRate: number | null;
  readonly harmfulFlipCi: Interval | null;
  /** Fewer than the floor of reps (App. L: 15): not plotted. */
  readonly hidden: boolean;
}

/** One judge's effort curve for one cued condition × dimension. */
export interface EffortRow {
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string;
  /** Gold-gated cued reps with a verdict and a turn count (Table 9's n). */
  readonly n: number;
  readonly harmfulFlips: number;
  /** Pearson r over raw (turns, flipped) points; null with fewer than two points or no spread. */
  readonly pearsonR: number | null;
  readonly bins: readonly EffortBin[];
  readonly excluded: {
    readonly invalidVerdict: number;
    readonly noTurns: number;
    readonly outsideBins: number;
  };
  readonly simulated: boolean;
}

/** Options: control arm, bin edges (App. L default) and the plotting floor (15). */
export interface EffortOptions extends ControlOptions {
  readonly edges?: readonly (readonly [number, number | null])[];
  readonly minRepsPerBin?: number;
}

/**
 * Plotted bins from edges: an open-ended last edge is merged into the bin before it (App. L), which
 * then has no upper edge.
 */
export function plottedBins(edges = EFFORT_BIN_EDGES): TurnBin[] {
  const last = edges[edges.length - 1];
  const merge = last !== undefined && last[1] === null && edges.length > 1;
  const kept = merge ? edges.slice(0, -1) : edges;
  return kept.map(([low, high], index) => {
    const open = merge && index === kept.length - 1 ? null : high;
    return { label: high === null ? `${low}+` : `${low}–${high}`, low, high: open };
  });
}

/** Pearson's r; null when there are fewer than two points or either variable is constant. */
export function pearsonCorrelation(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError('pearsonCorrelation needs paired values.');
  const count = xs.length;
  if (count < 2) return null;
  const meanX = xs.reduce((sum, x) => sum + x, 0) / count;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / count;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let index = 0; index < count; index += 1) {
    const dx = (xs[index] as number) - meanX;
    const dy = (ys[index] as number) - meanY;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

function binOf(bins: readonly TurnBin[], turns: number): number {
  return bins.findIndex((bin) => turns >= bin.low && (bin.high === null || turns <= bin.high));
}

/** Harmful flip rate by turn bin and Pearson r, per cued condition × dimension × judge. */
export function harmfulFlipsByEffort(
  rows: readonly JudgeRepRow[],
  options: EffortOptions = {},
): EffortRow[] {
  const bins = plottedBins(options.edges);
  const floor = options.minRepsPerBin ?? EFFORT_MIN_REPS_PER_BIN;
  const gated = pairItems(rows, options).filter((pair) => pair.status === 'gated');
  const arms = groupBy(gated, (pair) => compositeKey(pair.condition, pair.dimension, pair.judge));
  return [...arms.values()].map((pairs) => {
    const { condition, dimension, judge } = pairs[0] as PairedItem;
    const points: { turns: number; flipped: number; bin: number }[] = [];
    const excluded = { invalidVerdict: 0, noTurns: 0, outsideBins: 0 };
    for (const pair of pairs) {
      for (const rep of pair.cuedReps) {
        if (rep.verdict === null) excluded.invalidVerdict += 1;
        else if (rep.turns === null || !Number.isFinite(rep.turns)) excluded.noTurns += 1;
        else {
          const bin = binOf(bins, rep.turns);
          if (bin < 0) excluded.outsideBins += 1;
          else points.push({ turns: rep.turns, flipped: rep.verdict === pair.gold ? 0 : 1, bin });
        }
      }
    }
    const binRows = bins.map((bin, index): EffortBin => {
      const inBin = points.filter((point) => point.bin === index);
      const flips = inBin.filter((point) => point.flipped === 1).length;
      const hidden = inBin.length < floor;
      return {
        ...bin,
        n: inBin.length,
        harmfulFlips: flips,
        harmfulFlipRate: hidden ? null : proportion(flips, inBin.length),
        harmfulFlipCi: hidden ? null : wilsonInterval(flips, inBin.length),
        hidden,
      };
    });
    return {
      condition,
      dimension,
      judge,
      n: points.length,
      harmfulFlips: points.filter((point) => point.flipped === 1).length,
      pearsonR: pearsonCorrelation(
        points.map((point) => point.turns),
        points.map((point) => point.flipped),
      ),
      bins: binRows,
      excluded,
      simulated: anySimulated(pairs),
    };
  });
}
