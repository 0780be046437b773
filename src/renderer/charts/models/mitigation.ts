/** Table 1 from the `mitigations` table: flip rates before → after each mitigation. */
import { distinct, type ReportTableOf } from '../table-values';

/** One mitigation's before/after pair at the chosen scope. */
export interface MitigationRow {
  readonly mitigation: string;
  readonly before: string;
  readonly after: string;
  readonly judge: string;
  readonly dimension: string;
  readonly gate: number;
  readonly wrong: number;
  readonly n: number;
  readonly harmfulBefore: number | null;
  readonly harmfulAfter: number | null;
  readonly harmfulP: number | null;
  /** Holm-adjusted across the study's comparisons at the same scope (the table's column). */
  readonly harmfulPAdjusted: number | null;
  readonly helpfulBefore: number | null;
  readonly helpfulAfter: number | null;
  readonly helpfulP: number | null;
  readonly helpfulPAdjusted: number | null;
}

/** Rows of one judge choice ('all' = pooled over judges and datasets). */
export interface MitigationModel {
  readonly rows: MitigationRow[];
  readonly judges: string[];
  readonly judge: string | null;
}

/** Rows at scope `all` (judge 'all') or scope `judge` for one judge. */
export function mitigationModel(
  table: ReportTableOf<'mitigations'> | undefined,
  chosenJudge: string | null,
): MitigationModel {
  const rows = (table?.rows ?? []).filter((row) => row.pooled || row.scope === 'judge');
  const judges = distinct(rows.map((row) => row.judge));
  const ordered = judges.includes('all') ? ['all', ...judges.filter((j) => j !== 'all')] : judges;
  const judge =
    chosenJudge !== null && ordered.includes(chosenJudge) ? chosenJudge : (ordered[0] ?? null);
  return {
    judges: ordered,
    judge,
    rows: rows
      .filter((row) => row.judge === judge)
      .map((row) => ({
        mitigation: row.mitigation,
        before: row.before,
        after: row.after,
        judge: row.judge,
        dimension: row.dimension,
        gate: row.gate,
        wrong: row.wrong,
        n: row.n,
        harmfulBefore: row.harmfulBeforePct,
        harmfulAfter: row.harmfulAfterPct,
        harmfulP: row.harmfulP,
        harmfulPAdjusted: row.harmfulPAdjusted,
        helpfulBefore: row.helpfulBeforePct,
        helpfulAfter: row.helpfulAfterPct,
        helpfulP: row.helpfulP,
        helpfulPAdjusted: row.helpfulPAdjusted,
      })),
  };
}
