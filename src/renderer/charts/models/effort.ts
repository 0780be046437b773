/** Fig. 3 from the `effort` table: harmful flip rate per turn bin, one series per judge. */
import {
  countCell,
  distinct,
  inArm,
  numberCell,
  textCell,
  type ArmSelection,
  type ReportTableData,
} from '../table-values';

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
  table: ReportTableData | undefined,
  arm: ArmSelection | null,
): EffortModel {
  const rows = (table?.rows ?? []).filter((row) => inArm(row, arm));
  const judges = distinct(rows.map((row) => textCell(row, 'judge')));
  const series = judges.map((judge): EffortSeries => {
    const own = rows.filter((row) => textCell(row, 'judge') === judge);
    const pooled = own.find((row) => textCell(row, 'turns') === 'all');
    return {
      judge,
      bins: own
        .filter((row) => textCell(row, 'turns') !== 'all')
        .map((row) => ({
          label: textCell(row, 'turns'),
          n: countCell(row, 'n'),
          harmful: countCell(row, 'harmful'),
          pct: numberCell(row, 'harmfulPct'),
          low: numberCell(row, 'harmfulCiLow'),
          high: numberCell(row, 'harmfulCiHigh'),
          hidden: textCell(row, 'plotted') !== 'yes',
        })),
      n: pooled ? countCell(pooled, 'n') : 0,
      harmful: pooled ? countCell(pooled, 'harmful') : 0,
      pearsonR: pooled ? numberCell(pooled, 'pearsonR') : null,
    };
  });
  return {
    binLabels: distinct(series.flatMap((entry) => entry.bins.map((bin) => bin.label))),
    series,
  };
}
