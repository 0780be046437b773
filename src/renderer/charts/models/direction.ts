/** Fig. 13 from the `severity` table: severity vs leniency harmful flip rates, in panels. */
import {
  countCell,
  inArm,
  numberCell,
  textCell,
  type ArmSelection,
  type ReportRowData,
  type ReportTableData,
} from '../table-values';

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

function rate(row: ReportRowData, prefix: 'severity' | 'leniency'): DirectionRate {
  return {
    pct: numberCell(row, `${prefix}Pct`),
    low: numberCell(row, `${prefix}CiLow`),
    high: numberCell(row, `${prefix}CiHigh`),
    harmful: countCell(row, `${prefix}Harmful`),
    gate: countCell(row, `${prefix}Gate`),
  };
}

function groupOf(row: ReportRowData, by: 'dataset' | 'judge'): DirectionGroup {
  const judge = textCell(row, 'judge');
  const dataset = textCell(row, 'dataset');
  return {
    label: by === 'dataset' ? dataset : judge,
    judge: by === 'judge' ? judge : null,
    dataset: by === 'dataset' ? dataset : null,
    severity: rate(row, 'severity'),
    leniency: rate(row, 'leniency'),
    n: countCell(row, 'n'),
  };
}

/** The panels for one arm; a panel without rows is left out. */
export function directionPanels(
  table: ReportTableData | undefined,
  arm: ArmSelection | null,
): DirectionPanel[] {
  const rows = (table?.rows ?? []).filter((row) => inArm(row, arm));
  const scoped = (test: (scope: string) => boolean) =>
    rows.filter((row) => test(textCell(row, 'scope')));
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
      title: `By judge, ${textCell(excluded[0] ?? {}, 'scope').replace(/^judge /, '')}`,
      groups: excluded.map((row) => groupOf(row, 'judge')),
    },
  ];
  return panels.filter((panel) => panel.groups.length > 0);
}
