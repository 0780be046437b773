/** Fig. 2 from the `flips` table: harmful flip rate per judge × dataset for one cued arm. */
import {
  countCell,
  distinct,
  inArm,
  numberCell,
  textCell,
  type ArmSelection,
  type ReportRowData,
  type ReportTableData,
} from '../table-values';

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

function cellOf(row: ReportRowData, pooled: boolean): HeatCell {
  return {
    judge: textCell(row, 'judge'),
    dataset: pooled ? null : textCell(row, 'dataset'),
    harmfulPct: numberCell(row, 'harmfulPct'),
    harmfulLow: numberCell(row, 'harmfulCiLow'),
    harmfulHigh: numberCell(row, 'harmfulCiHigh'),
    harmful: countCell(row, 'harmful'),
    gate: countCell(row, 'gate'),
    n: countCell(row, 'n'),
    helpfulPct: numberCell(row, 'helpfulPct'),
    helpful: countCell(row, 'helpful'),
    wrong: countCell(row, 'wrong'),
    excluded: countCell(row, 'excluded'),
  };
}

/** The heatmap for one arm. */
export function heatmapModel(
  table: ReportTableData | undefined,
  arm: ArmSelection | null,
): HeatmapModel {
  const rows = (table?.rows ?? []).filter((row) => inArm(row, arm));
  const cellRows = rows.filter((row) => textCell(row, 'scope') === 'judge-dataset');
  const cells = cellRows.map((row) => cellOf(row, false));
  const overallRow = rows.find((row) => textCell(row, 'scope') === 'all');
  return {
    judges: distinct(cells.map((cell) => cell.judge)),
    datasets: distinct(cells.map((cell) => cell.dataset ?? '')),
    cells,
    pooled: rows
      .filter((row) => textCell(row, 'scope') === 'judge')
      .map((row) => cellOf(row, true)),
    overall: overallRow ? cellOf(overallRow, true) : null,
  };
}
