/**
 * Fig. 4 and Table 8 from the `ablation` and `placement` tables: one effect with its 95% CI per
 * cue condition (or per placement), at the pooled-dataset row of the chosen judge.
 */
import type { ReportRowOf } from '../../../shared/report-tables';
import { distinct, type ReportTableOf } from '../table-values';

type EffectRow = ReportRowOf<'ablation' | 'placement'>;

/** What the rows report (ablation.ts: ceiling closed, or harmful flip % without attribution). */
export type EffectMetric = 'ceiling' | 'flip';

/** One bar. */
export interface EffectBar {
  /** Category label, e.g. the condition or the placement. */
  readonly label: string;
  /** Second line: cue and mitigation, or the condition within a placement. */
  readonly detail: string;
  readonly condition: string;
  readonly judge: string;
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly n: number;
  readonly excluded: number;
  readonly placement: string;
  readonly cue: string;
  readonly mitigation: string;
}

/** The bars of one judge choice. */
export interface EffectModel {
  readonly metric: EffectMetric;
  readonly bars: EffectBar[];
  /** Judges to choose from; 'all' = pooled over judges. */
  readonly judges: string[];
  readonly judge: string | null;
}

/** The axis title of a metric. */
export function effectAxisTitle(metric: EffectMetric): string {
  return metric === 'ceiling'
    ? '% of taxonomy ceiling closed (95% bootstrap CI)'
    : 'Harmful flip rate, % (95% Wilson CI)';
}

function barOf(row: EffectRow, label: string, detail: string): EffectBar {
  return {
    label,
    detail,
    condition: row.condition,
    judge: row.judge,
    value: row.value,
    low: row.valueCiLow,
    high: row.valueCiHigh,
    n: row.n,
    excluded: row.excluded,
    placement: row.placement ?? '',
    cue: row.cue ?? '',
    mitigation: row.mitigation ?? '',
  };
}

function describe(row: EffectRow): string {
  const parts = [row.cue, row.placement, row.mitigation];
  return parts.filter(Boolean).join(' · ');
}

/** Bars per condition (`by` condition) or per placement. */
export function effectModel(
  table: ReportTableOf<'ablation' | 'placement'> | undefined,
  by: 'condition' | 'placement',
  chosenJudge: string | null,
): EffectModel {
  const rows = (table?.rows ?? []).filter((row) => row.pooled);
  const judges = distinct(rows.map((row) => row.judge));
  const fallback = judges.includes('all') ? 'all' : (judges[0] ?? null);
  const judge = chosenJudge !== null && judges.includes(chosenJudge) ? chosenJudge : fallback;
  const chosen = rows.filter((row) => row.judge === judge);
  const metric: EffectMetric = chosen.some((row) => row.metric.includes('ceiling'))
    ? 'ceiling'
    : 'flip';
  const perPlacement = new Map<string, number>();
  for (const row of chosen) {
    const placement = row.placement ?? '';
    perPlacement.set(placement, (perPlacement.get(placement) ?? 0) + 1);
  }
  const bars = chosen.map((row) => {
    if (by === 'condition') return barOf(row, row.condition, describe(row));
    const placement = row.placement ?? '';
    const shared = (perPlacement.get(placement) ?? 0) > 1;
    const mitigation = row.mitigation ?? '';
    const detail = shared
      ? `${row.condition}${mitigation ? ` (+${mitigation})` : ''}`
      : (row.cue ?? '');
    return barOf(row, placement, detail);
  });
  return { metric, bars, judges, judge };
}
