/**
 * The report tables the results page draws, typed by table: each table's rows are its schema's
 * (src/shared/report-tables.ts), so a figure reads `row.harmfulCiLow`, never a cell by name.
 */
import type { LabResponse } from '../../shared/lab-api';
import { REPORT_TABLES, type TableName } from '../../shared/report-tables';

/** A report table as the engine sends it: any of them, told apart by `name`. */
export type ReportTableData = LabResponse<'reportTable'>;
/** Every report table by name, its rows typed by its schema in src/shared/report-tables.ts. */
type ReportTablesByName = { [N in TableName]: Extract<ReportTableData, { name: N }> };
/** Report table N (or any of the tables N names). */
export type ReportTableOf<N extends TableName> = ReportTablesByName[N];

/** The result tables the window draws, in page order. */
export const resultTableNames = [
  'flips',
  'severity',
  'effort',
  'ablation',
  'placement',
  'mitigations',
  'regression',
  'accuracy',
  'graded',
  'mechanisms',
  'mechanisms-helpful',
  'card',
] as const satisfies readonly TableName[];

/** One of resultTableNames. */
export type ResultTableName = (typeof resultTableNames)[number];

/** The result tables by name, each with its own row type. */
export type ResultTables = { readonly [N in ResultTableName]?: ReportTableOf<N> };

/**
 * The tables a live refresh fetches while reps land (the map's `live` flag). The others are
 * fetched when a study opens, when its status moves and after classification.
 */
export const liveResultTableNames: readonly ResultTableName[] = resultTableNames.filter(
  (name) => REPORT_TABLES[name].live,
);

/** True when `table` is the table called `name` (its rows are then that table's). */
export function isTableNamed<N extends TableName>(
  table: ReportTableData,
  name: N,
): table is ReportTableOf<N> {
  return table.name === name;
}

/** The condition and dimension a figure shows (the page's picker). */
export interface ArmSelection {
  readonly condition: string;
  readonly dimension: string;
}

/** True when a row belongs to the selected arm (any arm when none is selected). */
export function inArm(
  row: { readonly condition: string; readonly dimension: string },
  arm: ArmSelection | null,
): boolean {
  if (!arm) return true;
  return row.condition === arm.condition && row.dimension === arm.dimension;
}

/** The notes worth showing beside a figure (the SIMULATED mark is drawn, not listed). */
export function readableNotes(table: { readonly notes: string[] } | undefined): string[] {
  return (table?.notes ?? []).filter((note) => !note.startsWith('SIMULATED'));
}

/** Distinct values in first-appearance order. */
export function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
