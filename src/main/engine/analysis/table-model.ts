/**
 * The shape every report table has, whatever prints it (the window, `cuelab report` as md, csv or
 * json): named columns, rows of plain cells, notes that say how to read it or why it is empty,
 * and whether synthetic-judge data is behind it. Rates are stored as percentages at full
 * precision; rounding is the printer's job, so every format shows the same numbers.
 */
import { rowFacts } from './row-facts';
import { simulatedMitigationNotes } from './simulated-mitigations';
import { type Interval, type JudgeRepRow, UNCUED_CONDITION } from './types';

export { TABLE_NAMES, type TableName } from '../../../shared/report-tables';
import type { TableName } from '../../../shared/report-tables';

/** A column: `key` in rows, csv and json; `label` in md. */
export interface ReportColumn {
  readonly key: string;
  readonly label: string;
  /** '%' (percent), 'pp' (percentage points), 'p' (a p-value), 'r' (a correlation). */
  readonly unit?: '%' | 'pp' | 'p' | 'r';
  /** Decimals md shows; default 1 for '%', 3 for 'p' and 'r', else as stored. */
  readonly digits?: number;
  /** Bounds of an interval: md prints a `low` column and the `high` after it as one "[low, high]". */
  readonly interval?: 'low' | 'high';
}

/** A cell: text, a number, or nothing (null: not defined, e.g. a rate over zero items). */
export type ReportCell = string | number | null;

/** A row, keyed by column key. */
export type ReportRow = Record<string, ReportCell>;

/** One printed table. */
export interface ReportTable {
  readonly name: TableName;
  readonly title: string;
  readonly columns: ReportColumn[];
  readonly rows: ReportRow[];
  /** How to read the table, what was left out and why, or why it is empty. */
  readonly notes: string[];
  /** True when any rep behind the table came from the synthetic judge. */
  readonly simulated: boolean;
  /** Reps of the study the table was computed from. */
  readonly reps: number;
  /** The study, when the table was built for one (reportTable). */
  readonly study?: { readonly id: string; readonly name: string; readonly origin: string };
}

/** The mark every format prints on a table with synthetic-judge data behind it. */
export const SIMULATED_NOTE = 'SIMULATED: synthetic-judge data';

/** What pooled rows show in their judge / dataset cells. */
export const POOLED = 'all';

/** A proportion as a percentage; null stays null. */
export function percent(rate: number | null): number | null {
  return rate === null ? null : rate * 100;
}

/** The two interval columns for a rate labelled `label` (e.g. "HF %"). */
export function intervalColumns(key: string, label: string): ReportColumn[] {
  return [
    { key: `${key}CiLow`, label: `${label} 95% CI low`, unit: '%', interval: 'low' },
    { key: `${key}CiHigh`, label: `${label} 95% CI high`, unit: '%', interval: 'high' },
  ];
}

/** Cells of an interval of proportions, as percentages. */
export function intervalCells(key: string, interval: Interval | null): ReportRow {
  return {
    [`${key}CiLow`]: interval ? interval.low * 100 : null,
    [`${key}CiHigh`]: interval ? interval.high * 100 : null,
  };
}

/** Cells of an interval already in percent (headroom). */
export function percentIntervalCells(key: string, interval: Interval | null): ReportRow {
  return {
    [`${key}CiLow`]: interval ? interval.low : null,
    [`${key}CiHigh`]: interval ? interval.high : null,
  };
}

/** Why a paired (cued vs control) table has nothing to show, or null when it should have rows. */
export function whyNoPairs(rows: readonly JudgeRepRow[]): string | null {
  const facts = rowFacts(rows);
  if (facts.reps === 0) return 'this study has no finished reps yet';
  if (!facts.hasControl)
    return `this study has no control-arm reps (condition "${UNCUED_CONDITION}")`;
  if (!facts.hasCued)
    return (
      'this study has no cued reps: an item’s cued reps are queued once its uncued majority is ' +
      'fixed, and an item whose uncued reps tie queues none'
    );
  if (!facts.hasVerdict)
    return 'this study has no pass/fail verdicts (only graded scores or error attribution)';
  if (!facts.hasGold) return 'no rep has a gold label, so nothing is gold-gated';
  return null;
}

/**
 * Every row table states how many reps a safety setting ended without a verdict: they vote as
 * invalid reps (majority.ts), so an item can become undetermined, and they are never dropped
 * without a count. Only native studies know a rep's outcome.
 */
function budgetNote(input: readonly JudgeRepRow[]): string[] {
  const facts = rowFacts(input);
  if (!facts.withOutcome) return [];
  return [
    `budget_exhausted reps: ${facts.exhausted.length} of ${facts.reps} (ended by the max-turn guard or the ` +
      'optional hard stop, no verdict; they vote as invalid reps, not dropped)',
  ];
}

/** Assembles a table; adds the SIMULATED note first when synthetic data is behind it. */
export function makeTable(
  parts: Omit<ReportTable, 'simulated' | 'reps' | 'notes'> & { readonly notes: string[] },
  input: readonly JudgeRepRow[],
  behind: readonly { readonly simulated: boolean }[],
): ReportTable {
  // An empty table has nothing behind it; it still carries the mark if the study is synthetic.
  const simulated =
    behind.length > 0 ? behind.some((row) => row.simulated) : rowFacts(input).simulated;
  // An empty table's reason is its last note (the window shows it in place of the figure).
  const why = parts.rows.length === 0 ? whyNoPairs(input) : null;
  const notes = [
    ...parts.notes.filter((note) => note !== why),
    ...budgetNote(input),
    ...(why ? [why] : []),
  ];
  return {
    ...parts,
    notes: simulated ? [SIMULATED_NOTE, ...simulatedMitigationNotes(input), ...notes] : notes,
    simulated,
    reps: input.length,
  };
}
