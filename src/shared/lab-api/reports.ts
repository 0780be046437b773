/**
 * LabApi methods for a study's report tables: one table as data (the window's figures), as CSV
 * (what the window downloads) and as text in md, csv or json (the exact bytes `cuelab report`
 * prints, so `cuelab --engine URL` prints the same as a local engine).
 */
import { z } from 'zod';
import { REPORT_TABLES, reportCellSchema, type TableName } from '../report-tables';

/** The formats `cuelab report` prints (and `formatReport` answers). */
export const reportFormats = ['md', 'csv', 'json'] as const;

/** One of reportFormats. */
export type ReportFormatName = (typeof reportFormats)[number];

/** True when `value` names a report format. */
export function isReportFormat(value: string): value is ReportFormatName {
  return (reportFormats as readonly string[]).includes(value);
}

/** A report-shaped table of any rows (a comparison's tables print the same way). */
export const reportTableSchema = z.object({
  /** Table name, e.g. `flips`. */
  name: z.string(),
  title: z.string(),
  columns: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      /** '%', 'pp' (percentage points), 'p' (p-value), 'r' (correlation). */
      unit: z.string().optional(),
      digits: z.number().optional(),
      /** Interval bounds: a `low` column and its `high` column print as one "[low, high]". */
      interval: z.enum(['low', 'high']).optional(),
    }),
  ),
  rows: z.array(z.record(z.string(), reportCellSchema)),
  notes: z.array(z.string()),
  /** True when any rep behind the table came from the synthetic judge. */
  simulated: z.boolean(),
  /** Reps the table was computed from. */
  reps: z.number(),
});

/**
 * Whether a table may be out of date: `wait` (the default) answers only the study's current
 * table, drawing it if need be; `stale-ok` answers at once with the table as last drawn when
 * reps landed since (a run interrupted by quitting), marked by `outdated`, and starts the
 * drawing of the current one (`study.tables` says when it is there). Only this engine
 * version's tables are answered so, and never the report card (its costs sum every rep).
 */
export const tableCurrencies = ['wait', 'stale-ok'] as const;

/** What an out-of-date table covers (present only when the answer is not current). */
export const outdatedTableSchema = z.object({
  /** The study's done reps when the table was drawn. */
  drawnFromReps: z.number().int().min(0),
  /** The study's done reps now. */
  studyReps: z.number().int().min(0),
  /** When the table was drawn (ISO 8601). */
  drawnAt: z.string(),
});

/** Report table N with its typed rows (report-tables.ts). */
function namedTableSchema<N extends TableName, Row extends z.ZodType>(name: N, row: Row) {
  return reportTableSchema.omit({ name: true, rows: true }).extend({
    name: z.literal(name),
    rows: z.array(row),
    /** Present only when the table is not the study's current one (asked `stale-ok`). */
    outdated: outdatedTableSchema.optional(),
  });
}

/** One of a study's report tables (the same numbers `cuelab report` prints), told by `name`. */
export const studyReportTableSchema = z.discriminatedUnion('name', [
  namedTableSchema('flips', REPORT_TABLES.flips.row),
  namedTableSchema('card', REPORT_TABLES.card.row),
  namedTableSchema('severity', REPORT_TABLES.severity.row),
  namedTableSchema('accuracy', REPORT_TABLES.accuracy.row),
  namedTableSchema('ablation', REPORT_TABLES.ablation.row),
  namedTableSchema('placement', REPORT_TABLES.placement.row),
  namedTableSchema('effort', REPORT_TABLES.effort.row),
  namedTableSchema('mitigations', REPORT_TABLES.mitigations.row),
  namedTableSchema('regression', REPORT_TABLES.regression.row),
  namedTableSchema('graded', REPORT_TABLES.graded.row),
  namedTableSchema('mechanisms', REPORT_TABLES.mechanisms.row),
  namedTableSchema('mechanisms-helpful', REPORT_TABLES['mechanisms-helpful'].row),
  namedTableSchema('mechanism-validation', REPORT_TABLES['mechanism-validation'].row),
  namedTableSchema('agreement', REPORT_TABLES.agreement.row),
]);

/** The report card's tolerance in percentage points (card-tolerance.ts); other tables ignore it. */
const tolerancePp = z.number().min(0).max(100).optional();

/** Report methods. */
export const reportMethods = {
  /** One report table of a study. */
  reportTable: {
    request: z
      .object({
        studyId: z.string().min(1),
        table: z.string().min(1),
        tolerancePp,
        /** `wait` unless given: see tableCurrencies. */
        current: z.enum(tableCurrencies).optional(),
      })
      .strict(),
    response: studyReportTableSchema,
  },
  /** Report tables as CSV text (what the window downloads). */
  reportCsv: {
    request: z
      .object({ studyId: z.string().min(1), table: z.string().min(1), tolerancePp })
      .strict(),
    response: z.object({ csv: z.string(), fileName: z.string() }),
  },
  /** One report table as text in md, csv or json: the exact bytes `cuelab report` prints. */
  formatReport: {
    request: z
      .object({
        studyId: z.string().min(1),
        table: z.string().min(1),
        format: z.enum(reportFormats),
        tolerancePp,
      })
      .strict(),
    response: z.object({ text: z.string() }),
  },
} as const;

/** Report events. */
export const reportEvents = {
  /**
   * A study's report tables are being drawn off the engine's thread (after its run, or on
   * engine start for a study whose stored tables are missing or stale): `done` of `total`
   * tables, over `reps` reps. The last event of a drawing has `done === total`, or `error`.
   */
  'study.tables': z.object({
    studyId: z.string(),
    done: z.number().int().min(0),
    total: z.number().int().min(0),
    /** The table being drawn now, or `done`. */
    step: z.string(),
    /** Reps the tables are drawn from. */
    reps: z.number().int().min(0),
    /** Why the drawing failed (the study's table requests say it too). */
    error: z.string().optional(),
  }),
} as const;
