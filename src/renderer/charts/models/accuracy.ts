/** Table 5 (and Table 6's last columns) from the `accuracy` table. */
import { inArm, type ArmSelection, type ReportTableOf } from '../table-values';

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

/** Rows for one arm at a scope, with the pooled `all` row last. */
export function accuracyRows(
  table: ReportTableOf<'accuracy'> | undefined,
  arm: ArmSelection | null,
  scope: AccuracyScope,
): AccuracyRow[] {
  return (table?.rows ?? [])
    .filter((row) => inArm(row, arm))
    .filter((row) => row.scope === scope || row.pooled)
    .map((row) => ({
      judge: row.judge,
      dataset: row.dataset,
      scope: row.scope,
      n: row.n,
      harmful: row.harmful,
      helpful: row.helpful,
      before: { pct: row.beforePct, low: row.beforeCiLow, high: row.beforeCiHigh },
      adversarial: {
        pct: row.adversarialPct,
        low: row.adversarialCiLow,
        high: row.adversarialCiHigh,
      },
      untargeted: {
        pct: row.untargetedPct,
        low: row.untargetedCiLow,
        high: row.untargetedCiHigh,
      },
    }));
}
