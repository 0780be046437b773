/**
 * The harm/help frontier, from the `mitigations` table's frontier columns: each mitigation's
 * harmful-flip reduction (pp, before − after) against the share of the cue's helpful flips it
 * keeps (% of before), with their intervals. §4 asks for a mitigation far right and high: one
 * that removes ungrounded deference and keeps evidence-grounded corrections.
 */
import { builtinMitigationIdSchema } from '../../../shared/cue-spec';
import { distinct, type ReportTableOf } from '../table-values';

const builtin = new Set<string>(builtinMitigationIdSchema.options);

/** How a synthetic study's number for this mitigation was made (null for a real study). */
export type FrontierBasis = 'table-1' | 'hypothesis' | 'not-modelled' | null;

/** One mitigation's point. */
export interface FrontierPoint {
  readonly mitigation: string;
  readonly after: string;
  readonly judge: string;
  readonly reduction: number;
  readonly reductionLow: number | null;
  readonly reductionHigh: number | null;
  readonly retained: number | null;
  readonly retainedLow: number | null;
  readonly retainedHigh: number | null;
  /** Items gated in the before arm, and items wrong there (the two rates' bases). */
  readonly gate: number;
  readonly wrong: number;
  readonly basis: FrontierBasis;
}

/** The points of one judge choice ('all' = pooled). */
export interface FrontierModel {
  readonly points: FrontierPoint[];
  readonly judges: string[];
  readonly judge: string | null;
}

/** A mitigation set's basis in a synthetic study: the weakest of its members'. */
export function frontierBasis(mitigation: string, simulated: boolean): FrontierBasis {
  if (!simulated) return null;
  const ids = mitigation.split('+');
  if (ids.some((id) => !builtin.has(id))) return 'not-modelled';
  return ids.includes('commit-first') ? 'hypothesis' : 'table-1';
}

/** Points at scope `all` (judge 'all') or scope `judge` for one judge. */
export function frontierModel(
  table: ReportTableOf<'mitigations'> | undefined,
  chosenJudge: string | null,
): FrontierModel {
  const rows = (table?.rows ?? []).filter(
    (row) => (row.pooled || row.scope === 'judge') && row.harmfulReductionPp !== null,
  );
  const judges = distinct(rows.map((row) => row.judge));
  const ordered = judges.includes('all') ? ['all', ...judges.filter((j) => j !== 'all')] : judges;
  const judge =
    chosenJudge !== null && ordered.includes(chosenJudge) ? chosenJudge : (ordered[0] ?? null);
  const simulated = table?.simulated ?? false;
  return {
    judges: ordered,
    judge,
    points: rows
      .filter((row) => row.judge === judge)
      .map((row) => ({
        mitigation: row.mitigation,
        after: row.after,
        judge: row.judge,
        reduction: row.harmfulReductionPp ?? 0,
        reductionLow: row.harmfulReductionCiLow,
        reductionHigh: row.harmfulReductionCiHigh,
        retained: row.helpfulRetainedPct,
        retainedLow: row.helpfulRetainedCiLow,
        retainedHigh: row.helpfulRetainedCiHigh,
        gate: row.gate,
        wrong: row.wrong,
        basis: frontierBasis(row.mitigation, simulated),
      })),
  };
}

/** The label a point carries: its mitigation, and in a synthetic study what stands behind it. */
export function frontierLabel(point: FrontierPoint): string {
  switch (point.basis) {
    case 'hypothesis':
      return `${point.mitigation} (CueLab’s own; simulated as a hypothesis)`;
    case 'not-modelled':
      return `${point.mitigation} (effect not modelled)`;
    default:
      return point.mitigation;
  }
}
