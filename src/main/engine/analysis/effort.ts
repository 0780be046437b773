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
 *
 * A bin's reps come from fewer items than reps (an item's three reps often land in one bin), so
 * its interval is the item-clustered bootstrap with its Wilson floor (cluster-bootstrap.ts), not
 * a Wilson interval over reps as if they were independent; each bin counts its items.
 */
import { EFFORT_BIN_EDGES, EFFORT_MIN_REPS_PER_BIN } from '../paper';
import { resolveBootstrap } from './bootstrap';
import { clusteredRateOfKinds, FEW_CLUSTERS } from './cluster-bootstrap';
import { KINDS, kindIndex, kindsFrom, MAX_TALLIED_REPS } from './rep-rates';
import { pairItems } from './pairs';
import { scopedTally, type TallySpec } from './scoped-tally';
import type { ControlOptions, Interval, JudgeRepRow } from './types';
import { proportion, wilsonAtEffectiveSize } from './wilson';

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
  /** Item-clustered interval (the bin's reps grouped by item); null when hidden or empty. */
  readonly harmfulFlipCi: Interval | null;
  /** Items the bin's reps come from. */
  readonly items: number;
  /** Fewer than FEW_CLUSTERS items behind the bin: its interval rests on few clusters. */
  readonly fewItems: boolean;
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

/** Pearson's r from the sums of integer points (exact sums, so a carried tally equals a fresh one). */
function pearsonOfSums(n: number, sx: number, sxx: number, sy: number, sxy: number): number | null {
  if (n < 2) return null;
  const varianceX = n * sxx - sx * sx;
  const varianceY = n * sy - sy * sy;
  if (varianceX === 0 || varianceY === 0) return null;
  return (n * sxy - sx * sy) / Math.sqrt(varianceX * varianceY);
}

/**
 * Counter layout: per bin n and #HF, then the exclusions, n, #HF and the sums for r, then per bin
 * its items' (events, reps) kinds (rep-rates.ts) and the items with more reps than the kinds hold.
 */
const AFTER_BINS = { invalid: 0, noTurns: 1, outside: 2, n: 3, flips: 4, sx: 5, sxx: 6, sxy: 7 };

const tallies = new Map<string, TallySpec<'judge'>>();

function add(counters: number[], index: number, value: number): void {
  counters[index] = (counters[index] ?? 0) + value;
}

/**
 * App. L's counts as a tally over the gated pairs (scoped-tally.ts), so a live refresh carries
 * them over and counts only the batch's items. Turns are whole numbers in a native study, so the
 * sums for r are exact integers whether counted fresh or carried.
 */
function effortTally(bins: readonly TurnBin[]): TallySpec<'judge'> {
  const id = `effort\u0000${JSON.stringify(bins)}`;
  const known = tallies.get(id);
  if (known) return known;
  const base = bins.length * 2;
  const spec: TallySpec<'judge'> = {
    id,
    levels: [{ scope: 'judge', byJudge: true, byDataset: false }],
    width: base + 8 + bins.length * (KINDS + 1),
    include: (pair) => pair.status === 'gated',
    count: (pair, counters) => {
      const perBin = bins.map(() => ({ events: 0, reps: 0 }));
      for (const rep of pair.cuedReps) {
        if (rep.verdict === null) add(counters, base + AFTER_BINS.invalid, 1);
        else if (rep.turns === null || !Number.isFinite(rep.turns))
          add(counters, base + AFTER_BINS.noTurns, 1);
        else {
          const bin = binOf(bins, rep.turns);
          if (bin < 0) add(counters, base + AFTER_BINS.outside, 1);
          else {
            const flipped = rep.verdict === pair.gold ? 0 : 1;
            const own = perBin[bin] as { events: number; reps: number };
            own.reps += 1;
            own.events += flipped;
            add(counters, bin * 2, 1);
            add(counters, bin * 2 + 1, flipped);
            add(counters, base + AFTER_BINS.n, 1);
            add(counters, base + AFTER_BINS.flips, flipped);
            add(counters, base + AFTER_BINS.sx, rep.turns);
            add(counters, base + AFTER_BINS.sxx, rep.turns * rep.turns);
            add(counters, base + AFTER_BINS.sxy, rep.turns * flipped);
          }
        }
      }
      perBin.forEach((cluster, bin) => {
        if (cluster.reps === 0) return;
        const at = base + 8 + bin * (KINDS + 1);
        add(counters, cluster.reps > MAX_TALLIED_REPS ? at + KINDS : at + kindIndex(cluster), 1);
      });
    },
  };
  tallies.set(id, spec);
  return spec;
}

/** Harmful flip rate by turn bin and Pearson r, per cued condition × dimension × judge. */
export function harmfulFlipsByEffort(
  rows: readonly JudgeRepRow[],
  options: EffortOptions = {},
): EffortRow[] {
  const bins = plottedBins(options.edges);
  const floor = options.minRepsPerBin ?? EFFORT_MIN_REPS_PER_BIN;
  const base = bins.length * 2;
  const settings = resolveBootstrap();
  return scopedTally(pairItems(rows, options), effortTally(bins)).map((group) => {
    const count = (index: number) => group.counters[index] ?? 0;
    const binRows = bins.map((bin, index): EffortBin => {
      const n = count(index * 2);
      const flips = count(index * 2 + 1);
      const hidden = n < floor;
      const at = base + 8 + index * (KINDS + 1);
      const kinds = kindsFrom(group.counters, at);
      const overflow = count(at + KINDS);
      const items = kinds.reduce((sum, kind) => sum + kind.count, 0) + overflow;
      const scope = ['effort', group.condition, group.dimension, group.judge ?? '', bin.label];
      // Items with more reps in one bin than the kinds hold: Wilson at the item count (the
      // effective size when reps of an item always agree), the conservative end.
      const interval =
        hidden || n === 0
          ? null
          : overflow > 0
            ? wilsonAtEffectiveSize(flips / n, items)
            : (clusteredRateOfKinds(kinds, settings, scope)?.interval ?? null);
      return {
        ...bin,
        n,
        harmfulFlips: flips,
        harmfulFlipRate: hidden ? null : proportion(flips, n),
        harmfulFlipCi: interval,
        items,
        fewItems: items < FEW_CLUSTERS,
        hidden,
      };
    });
    const n = count(base + AFTER_BINS.n);
    const flips = count(base + AFTER_BINS.flips);
    return {
      condition: group.condition,
      dimension: group.dimension,
      judge: group.judge ?? '',
      n,
      harmfulFlips: flips,
      pearsonR: pearsonOfSums(
        n,
        count(base + AFTER_BINS.sx),
        count(base + AFTER_BINS.sxx),
        flips,
        count(base + AFTER_BINS.sxy),
      ),
      bins: binRows,
      excluded: {
        invalidVerdict: count(base + AFTER_BINS.invalid),
        noTurns: count(base + AFTER_BINS.noTurns),
        outsideBins: count(base + AFTER_BINS.outside),
      },
      simulated: group.simulatedPairs > 0,
    };
  });
}
