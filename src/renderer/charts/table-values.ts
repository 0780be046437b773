/** Typed reads of report-table cells (the contract carries plain string | number | null). */
import type { LabResponse } from '../../shared/lab-api';
import type { TableName } from '../../shared/report-tables';

/** A report table as the engine sends it. */
export type ReportTableData = LabResponse<'reportTable'>;
/** One row of a report table. */
export type ReportRowData = ReportTableData['rows'][number];

/** The result tables the window draws, in page order. */
export const resultTableNames = [
  'flips',
  'severity',
  'effort',
  'ablation',
  'placement',
  'mitigations',
  'accuracy',
  'graded',
  'mechanisms',
  'mechanisms-helpful',
] as const satisfies readonly TableName[];

/**
 * The tables a live refresh fetches while reps land. The mechanism tables change only when
 * flips are classified, so they are fetched when a study opens, when its status moves and
 * after classification.
 */
export const liveResultTableNames = resultTableNames.slice(0, 8);

/** One of resultTableNames. */
export type ResultTableName = (typeof resultTableNames)[number];

/** A numeric cell, or null when empty or not a number. */
export function numberCell(row: ReportRowData, key: string): number | null {
  const value = row[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A numeric cell, 0 when empty. */
export function countCell(row: ReportRowData, key: string): number {
  return numberCell(row, key) ?? 0;
}

/** A text cell, '' when empty. */
export function textCell(row: ReportRowData, key: string): string {
  const value = row[key];
  return value === null || value === undefined ? '' : String(value);
}

/** The condition and dimension a figure shows (the page's picker). */
export interface ArmSelection {
  readonly condition: string;
  readonly dimension: string;
}

/** True when a row belongs to the selected arm (any arm when none is selected). */
export function inArm(row: ReportRowData, arm: ArmSelection | null): boolean {
  if (!arm) return true;
  return (
    textCell(row, 'condition') === arm.condition && textCell(row, 'dimension') === arm.dimension
  );
}

/** The notes worth showing beside a figure (the SIMULATED mark is drawn, not listed). */
export function readableNotes(table: ReportTableData | undefined): string[] {
  return (table?.notes ?? []).filter((note) => !note.startsWith('SIMULATED'));
}

/** Distinct values in first-appearance order. */
export function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
