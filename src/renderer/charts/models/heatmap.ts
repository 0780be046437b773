/** Fig. 2 from the `flips` table: harmful flip rate per judge × dataset for one cued arm. */
import type { ReportRowOf } from '../../../shared/report-tables';
import { distinct, inArm, type ArmSelection, type ReportTableOf } from '../table-values';

/** One cell: a judge on a dataset, or a judge pooled over datasets. */
export interface HeatCell {
  readonly judge: string;
  /** The dataset, or null for the judge's pooled column. */
  readonly dataset: string | null;
  readonly harmfulPct: number | null;
  readonly harmfulLow: number | null;
  readonly harmfulHigh: number | null;
  readonly harmful: number;
  readonly gate: number;
  readonly n: number;
  readonly helpfulPct: number | null;
  readonly helpful: number;
  readonly wrong: number;
  readonly excluded: number;
}

/** The heatmap's grid and its pooled totals. */
export interface HeatmapModel {
  readonly judges: string[];
  readonly datasets: string[];
  readonly cells: HeatCell[];
  /** Each judge pooled over datasets (scope `judge`). */
  readonly pooled: HeatCell[];
  /** Everything pooled (scope `all`). */
  readonly overall: HeatCell | null;
}

function cellOf(row: ReportRowOf<'flips'>, pooled: boolean): HeatCell {
  return {
    judge: row.judge,
    dataset: pooled ? null : row.dataset,
    harmfulPct: row.harmfulPct,
    harmfulLow: row.harmfulCiLow,
    harmfulHigh: row.harmfulCiHigh,
    harmful: row.harmful,
    gate: row.gate,
    n: row.n,
    helpfulPct: row.helpfulPct,
    helpful: row.helpful,
    wrong: row.wrong,
    excluded: row.excluded,
  };
}

/** The heatmap for one arm. */
export function heatmapModel(
  table: ReportTableOf<'flips'> | undefined,
  arm: ArmSelection | null,
): HeatmapModel {
  const rows = (table?.rows ?? []).filter((row) => inArm(row, arm));
  const cellRows = rows.filter((row) => row.scope === 'judge-dataset');
  const cells = cellRows.map((row) => cellOf(row, false));
  const overallRow = rows.find((row) => row.pooled);
  return {
    judges: distinct(cells.map((cell) => cell.judge)),
    datasets: distinct(cells.map((cell) => cell.dataset ?? '')),
    cells,
    pooled: rows.filter((row) => row.scope === 'judge').map((row) => cellOf(row, true)),
    overall: overallRow ? cellOf(overallRow, true) : null,
  };
}
