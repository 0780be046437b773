/**
 * LabApi methods comparing two studies (the Compare view and `cuelab compare`): the change in
 * harmful and helpful flip rates of every judge × condition both studies ran, with an interval
 * and a test, and the items whose outcome changed.
 */
import { z } from 'zod';
import { reportCellSchema } from '../report-tables';
import { reportFormats, reportTableSchema } from './reports';

const comparePair = {
  /** The baseline study (A): differences are B − A. */
  studyA: z.string().min(1),
  /** The study compared with it (B). */
  studyB: z.string().min(1),
  /**
   * With a margin (a proportion, e.g. 0.05 for ±5 pp), each rate row also carries the TOST
   * equivalence result on Newcombe's 90% interval.
   */
  equivalenceMargin: z.number().gt(0).lt(1).optional(),
  /** The tolerance both report cards are read at, percentage points (default 0). */
  tolerancePp: z.number().min(0).max(100).optional(),
};

const count = z.number();
const measure = z.number().nullable();

/**
 * One row of `compare`: B − A for a judge × condition × dimension × flip kind. The Compare
 * view also prints every row by its columns, so cells pass through beside the typed fields.
 */
export const compareRateRowSchema = z
  .object({
    judgeA: z.string(),
    judgeB: z.string(),
    condition: z.string(),
    dimension: z.string(),
    flip: z.enum(['harmful', 'helpful']),
    design: z.enum(['paired', 'unpaired']),
    itemsA: count,
    rateA: measure,
    itemsB: count,
    rateB: measure,
    /** B − A in percentage points, with its 95% interval. */
    difference: measure,
    differenceCiLow: measure,
    differenceCiHigh: measure,
    test: z.string(),
    pValue: measure,
    unsharedItems: count,
    /** With an equivalence margin: the margin (pp), the 90% interval and 'yes' / 'not shown'. */
    equivalenceMargin: measure.optional(),
    tostCiLow: measure.optional(),
    tostCiHigh: measure.optional(),
    equivalent: z.string().nullable().optional(),
  })
  .catchall(reportCellSchema);

/** One row of `compare-items`: an item whose outcome differs between the studies. */
export const changedItemRowSchema = z
  .object({
    judgeA: z.string(),
    judgeB: z.string(),
    condition: z.string(),
    dimension: z.string(),
    dataset: z.string(),
    itemId: z.string(),
    outcomeA: z.string(),
    outcomeB: z.string(),
  })
  .catchall(reportCellSchema);

/** A comparison as the window shows it: two tables in the report-table shape. */
export const studyComparisonSchema = z.object({
  studyA: z.object({ id: z.string(), name: z.string() }),
  studyB: z.object({ id: z.string(), name: z.string() }),
  /** One row per judge × condition × dimension × flip kind (`compare`). */
  rates: reportTableSchema.extend({ rows: z.array(compareRateRowSchema) }),
  /** Items whose outcome differs between the studies (`compare-items`). */
  changedItems: reportTableSchema.extend({ rows: z.array(changedItemRowSchema) }),
  /** The two studies' report cards side by side (`compare-cards`), one row per shared arm. */
  cards: reportTableSchema,
  /** True when either study has synthetic-judge reps. */
  simulated: z.boolean(),
});

/** Compare methods. */
export const compareMethods = {
  /** B against A: flip-rate differences and changed items. */
  compareStudies: {
    request: z.object(comparePair).strict(),
    response: studyComparisonSchema,
  },
  /** The comparison as text: md (both tables), csv or json (`part` picks the csv table). */
  formatComparison: {
    request: z
      .object({
        ...comparePair,
        format: z.enum(reportFormats),
        /**
         * Which table csv prints (md and json hold rates and items); default `rates`. `cards`
         * prints the report cards compared, in md and csv alike.
         */
        part: z.enum(['rates', 'items', 'cards']).optional(),
      })
      .strict(),
    response: z.object({ text: z.string(), fileName: z.string() }),
  },
} as const;
