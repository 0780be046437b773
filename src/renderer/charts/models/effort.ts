/** Fig. 3 from the `effort` table: harmful flip rate per turn bin, one series per judge. */
import { distinct, inArm, type ArmSelection, type ReportTableOf } from '../table-values';

/** One turn bin of one judge. */
export interface EffortBin {
  readonly label: string;
  readonly n: number;
  readonly harmful: number;
  readonly pct: number | null;
  readonly low: number | null;
  readonly high: number | null;
  /** Too few reps to plot (App. L's floor). */
  readonly hidden: boolean;
  /** Items behind the bin's reps (the clusters of its interval). */
  readonly items: number;
  /** Fewer than 15 items behind the bin: its interval rests on few clusters (drawn hollow). */
  readonly fewItems: boolean;
}

/** One judge's curve with its pooled totals and Pearson r. */
export interface EffortSeries {
  readonly judge: string;
  readonly bins: EffortBin[];
  readonly n: number;
  readonly harmful: number;
  readonly pearsonR: number | null;
}

/** The curves and the bin order. */
export interface EffortModel {
  readonly binLabels: string[];
  readonly series: EffortSeries[];
}

/** Curves for one arm. */
export function effortModel(
  table: ReportTableOf<'effort'> | undefined,
  arm: ArmSelection | null,
): EffortModel {
  const rows = (table?.rows ?? []).filter((row) => inArm(row, arm));
  const judges = distinct(rows.map((row) => row.judge));
  const series = judges.map((judge): EffortSeries => {
    const own = rows.filter((row) => row.judge === judge);
    const pooled = own.find((row) => row.pooled);
    return {
      judge,
      bins: own
        .filter((row) => !row.pooled)
        .map((row) => ({
          label: row.turns,
          n: row.n,
          harmful: row.harmful,
          pct: row.harmfulPct,
          low: row.harmfulCiLow,
          high: row.harmfulCiHigh,
          hidden: row.plotted !== 'yes',
          items: row.items,
          fewItems: row.warning !== null,
        })),
      n: pooled?.n ?? 0,
      harmful: pooled?.harmful ?? 0,
      pearsonR: pooled?.pearsonR ?? null,
    };
  });
  return {
    binLabels: distinct(series.flatMap((entry) => entry.bins.map((bin) => bin.label))),
    series,
  };
}
