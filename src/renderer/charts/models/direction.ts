/** Fig. 13 from the `severity` table: severity vs leniency harmful flip rates, in panels. */
import type { ReportRowOf } from '../../../shared/report-tables';
import { inArm, type ArmSelection, type ReportTableOf } from '../table-values';

/** One direction's rate in a group. */
export interface DirectionRate {
  readonly pct: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly harmful: number;
  readonly gate: number;
}

/** One group of two bars: a dataset or a judge. */
export interface DirectionGroup {
  readonly label: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  readonly severity: DirectionRate;
  readonly leniency: DirectionRate;
  readonly n: number;
}

/** One panel of the figure (App. D: by dataset, by judge, by judge without the pass-heavy set). */
export interface DirectionPanel {
  readonly id: string;
  readonly title: string;
  readonly groups: DirectionGroup[];
}

type SeverityRow = ReportRowOf<'severity'>;

function groupOf(row: SeverityRow, by: 'dataset' | 'judge'): DirectionGroup {
  const { judge, dataset } = row;
  return {
    label: by === 'dataset' ? dataset : judge,
    judge: by === 'judge' ? judge : null,
    dataset: by === 'dataset' ? dataset : null,
    severity: {
      pct: row.severityPct,
      low: row.severityCiLow,
      high: row.severityCiHigh,
      harmful: row.severityHarmful,
      gate: row.severityGate,
    },
    leniency: {
      pct: row.leniencyPct,
      low: row.leniencyCiLow,
      high: row.leniencyCiHigh,
      harmful: row.leniencyHarmful,
      gate: row.leniencyGate,
    },
    n: row.n,
  };
}

/** The panels for one arm; a panel without rows is left out. */
export function directionPanels(
  table: ReportTableOf<'severity'> | undefined,
  arm: ArmSelection | null,
): DirectionPanel[] {
  const rows = (table?.rows ?? []).filter((row) => inArm(row, arm));
  const scoped = (test: (scope: string) => boolean) => rows.filter((row) => test(row.scope));
  const excluded = scoped((scope) => scope.startsWith('judge excl.'));
  const panels: DirectionPanel[] = [
    {
      id: 'dataset',
      title: 'By dataset (all judges)',
      groups: scoped((scope) => scope === 'dataset').map((row) => groupOf(row, 'dataset')),
    },
    {
      id: 'judge',
      title: 'By judge (all datasets)',
      groups: scoped((scope) => scope === 'judge').map((row) => groupOf(row, 'judge')),
    },
    {
      id: 'judge-excluded',
      title: `By judge, ${(excluded[0]?.scope ?? '').replace(/^judge /, '')}`,
      groups: excluded.map((row) => groupOf(row, 'judge')),
    },
  ];
  return panels.filter((panel) => panel.groups.length > 0);
}
