/** Table 5 (and Table 6's last columns) from the `accuracy` table. */
import {
  countCell,
  inArm,
  numberCell,
  textCell,
  type ArmSelection,
  type ReportRowData,
  type ReportTableData,
} from '../table-values';

/** An accuracy with its interval. */
export interface AccuracyValue {
  readonly pct: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

/** One row of the accuracy table. */
export interface AccuracyRow {
  readonly judge: string;
  readonly dataset: string;
  readonly scope: string;
  readonly n: number;
  readonly harmful: number;
  readonly helpful: number;
  readonly before: AccuracyValue;
  readonly adversarial: AccuracyValue;
  readonly untargeted: AccuracyValue;
}

/** Which rows: per judge (Table 5) or per judge × dataset (Table 6). */
export type AccuracyScope = 'judge' | 'judge-dataset';

function value(row: ReportRowData, prefix: string): AccuracyValue {
  return {
    pct: numberCell(row, `${prefix}Pct`),
    low: numberCell(row, `${prefix}CiLow`),
    high: numberCell(row, `${prefix}CiHigh`),
  };
}

/** Rows for one arm at a scope, with the pooled `all` row last. */
export function accuracyRows(
  table: ReportTableData | undefined,
  arm: ArmSelection | null,
  scope: AccuracyScope,
): AccuracyRow[] {
  return (table?.rows ?? [])
    .filter((row) => inArm(row, arm))
    .filter((row) => {
      const rowScope = textCell(row, 'scope');
      return rowScope === scope || rowScope === 'all';
    })
    .map((row) => ({
      judge: textCell(row, 'judge'),
      dataset: textCell(row, 'dataset'),
      scope: textCell(row, 'scope'),
      n: countCell(row, 'n'),
      harmful: countCell(row, 'harmful'),
      helpful: countCell(row, 'helpful'),
      before: value(row, 'before'),
      adversarial: value(row, 'adversarial'),
      untargeted: value(row, 'untargeted'),
    }));
}
