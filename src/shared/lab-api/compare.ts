/**
 * LabApi methods comparing two studies (the Compare view and `cuelab compare`): the change in
 * harmful and helpful flip rates of every judge × condition both studies ran, with an interval
 * and a test, and the items whose outcome changed.
 */
import { z } from 'zod';
import { reportFormats, reportTableSchema } from './reports';

const comparePair = {
  /** The baseline study (A): differences are B − A. */
  studyA: z.string().min(1),
  /** The study compared with it (B). */
  studyB: z.string().min(1),
};

/** A comparison as the window shows it: two tables in the report-table shape. */
export const studyComparisonSchema = z.object({
  studyA: z.object({ id: z.string(), name: z.string() }),
  studyB: z.object({ id: z.string(), name: z.string() }),
  /** One row per judge × condition × dimension × flip kind (`compare`). */
  rates: reportTableSchema,
  /** Items whose outcome differs between the studies (`compare-items`). */
  changedItems: reportTableSchema,
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
        /** Which table csv prints (md and json hold both); default `rates`. */
        part: z.enum(['rates', 'items']).optional(),
      })
      .strict(),
    response: z.object({ text: z.string(), fileName: z.string() }),
  },
} as const;
