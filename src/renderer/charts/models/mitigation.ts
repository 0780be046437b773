/** Table 1 from the `mitigations` table: flip rates before → after each mitigation. */
import { countCell, distinct, numberCell, textCell, type ReportTableData } from '../table-values';

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
  table: ReportTableData | undefined,
  chosenJudge: string | null,
): MitigationModel {
  const rows = (table?.rows ?? []).filter((row) => {
    const scope = textCell(row, 'scope');
    return scope === 'all' || scope === 'judge';
  });
  const judges = distinct(rows.map((row) => textCell(row, 'judge')));
  const ordered = judges.includes('all') ? ['all', ...judges.filter((j) => j !== 'all')] : judges;
  const judge =
    chosenJudge !== null && ordered.includes(chosenJudge) ? chosenJudge : (ordered[0] ?? null);
  return {
    judges: ordered,
    judge,
    rows: rows
      .filter((row) => textCell(row, 'judge') === judge)
      .map((row) => ({
        mitigation: textCell(row, 'mitigation'),
        before: textCell(row, 'before'),
        after: textCell(row, 'after'),
        judge: textCell(row, 'judge'),
        dimension: textCell(row, 'dimension'),
        gate: countCell(row, 'gate'),
        wrong: countCell(row, 'wrong'),
        n: countCell(row, 'n'),
        harmfulBefore: numberCell(row, 'harmfulBeforePct'),
        harmfulAfter: numberCell(row, 'harmfulAfterPct'),
        harmfulP: numberCell(row, 'harmfulP'),
        harmfulPAdjusted: numberCell(row, 'harmfulPAdjusted'),
        helpfulBefore: numberCell(row, 'helpfulBeforePct'),
        helpfulAfter: numberCell(row, 'helpfulAfterPct'),
        helpfulP: numberCell(row, 'helpfulP'),
        helpfulPAdjusted: numberCell(row, 'helpfulPAdjusted'),
      })),
  };
}
