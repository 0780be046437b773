/**
 * LabApi methods for a study's reps: the reps behind a chart cell, and the results workbench
 * (any rep filtered, sorted and searched a page at a time; any rep's transcript; any two reps
 * side by side).
 */
import { z } from 'zod';
import { flipPairSchema } from './mechanisms';

/** A stored rep as listed behind a chart cell. */
export const repSummarySchema = z.object({
  repId: z.string(),
  itemId: z.string(),
  dataset: z.string(),
  judgeId: z.string(),
  conditionKey: z.string(),
  direction: z.string(),
  rep: z.number(),
  outcome: z.string(),
  verdict: z.string().nullable(),
  gold: z.string().nullable(),
  turns: z.number(),
  toolResults: z.number(),
  simulated: z.boolean(),
});

/** Columns the reps table sorts by (engine store/rep-query.ts). */
export const repSortKeys = ['item', 'judge', 'condition', 'rep', 'verdict', 'turns'] as const;

/** The reps table's filters and page. */
export const repQuerySchema = z
  .object({
    studyId: z.string().min(1),
    judgeId: z.string().min(1).optional(),
    dataset: z.string().min(1).optional(),
    conditionKey: z.string().min(1).optional(),
    /** Which way the cue pointed; `uncued` for the control's reps. */
    direction: z.enum(['severity', 'leniency', 'uncued']).optional(),
    /** `none`: no pass/fail verdict (invalid, budget exhausted, error, graded). */
    verdict: z.enum(['pass', 'fail', 'none']).optional(),
    /** Flipped cued reps by kind (§3.1 harmful, App. F helpful), any flip, or none. */
    flipped: z.enum(['harmful', 'helpful', 'any', 'no']).optional(),
    /** A mechanism label of a flipped rep (classifier or the synthetic judge's truth). */
    mechanism: z.string().min(1).max(80).optional(),
    /**
     * Words to find in the rationale or one message of the transcript (all of them, whole
     * words, case-insensitive), a "quoted phrase", or a prefix* (the engine's full-text index).
     */
    search: z.string().max(200).optional(),
    sort: z.enum(repSortKeys).optional(),
    descending: z.boolean().optional(),
    offset: z.number().int().min(0).max(10_000_000).optional(),
    /** Page size (default 50). */
    limit: z.number().int().min(1).max(200).optional(),
  })
  .strict();

/** One rep as the workbench lists it. */
export const workbenchRepSchema = repSummarySchema.extend({
  /** Set when the rep is a flipped cued rep. */
  flip: z.enum(['harmful', 'helpful']).nullable(),
  /** Its mechanism label (ensemble, else diff classifier, else the synthetic truth). */
  mechanism: z.string().nullable(),
});

const runSchema = flipPairSchema.shape.baseline;

/** Rep methods. */
export const repMethods = {
  /** Reps of a study, optionally narrowed to a chart cell. */
  listReps: {
    request: z
      .object({
        studyId: z.string().min(1),
        judgeId: z.string().optional(),
        dataset: z.string().optional(),
        conditionKey: z.string().optional(),
        itemId: z.string().optional(),
        limit: z.number().int().min(1).max(5000).optional(),
      })
      .strict(),
    response: z.array(repSummarySchema),
  },
  /** One page of a study's reps; `hasMore` says whether another page follows. */
  queryReps: {
    request: repQuerySchema,
    response: z.object({
      rows: z.array(workbenchRepSchema),
      hasMore: z.boolean(),
      /** Values the judge, dataset, condition and mechanism filters can take. */
      facets: z.object({
        judges: z.array(z.string()),
        datasets: z.array(z.string()),
        conditions: z.array(z.string()),
        mechanisms: z.array(z.string()),
      }),
      /** Why there are no rows to list at all (an imported study has no transcripts), or null. */
      note: z.string().nullable(),
      simulated: z.boolean(),
    }),
  },
  /**
   * Any two reps side by side (`repB` may be left out to read one rep's transcript), their tool
   * calls aligned as in Replay.
   */
  loadRepPair: {
    request: z.object({ repA: z.string().min(1), repB: z.string().min(1).optional() }).strict(),
    response: z.object({
      a: runSchema,
      b: runSchema.nullable(),
      /** Rows of the side-by-side view: indexes into each run's calls. */
      alignment: z.array(z.object({ a: z.number().nullable(), b: z.number().nullable() })),
      /** First aligned row where one run has a call the other lacks; null when none. */
      divergenceRow: z.number().nullable(),
    }),
  },
} as const;
