/**
 * LabApi methods for studies: listing them and finding one by what a person types, the
 * builder's estimate, creating a study from a spec, and following and controlling its run.
 */
import { z } from 'zod';
import { studySpecSchema } from '../study-spec';
import { studyProgressSchema } from '../study-progress';

const studyRef = z.object({ studyId: z.string().min(1) }).strict();

/** Lifecycle of a study. */
export const studyStatusSchema = z.enum([
  'draft',
  'queued',
  'running',
  'paused',
  'cancelled',
  'completed',
  'failed',
]);

/** One study, as listed. */
export const studySummarySchema = z.object({
  /** Stable identifier. */
  id: z.string(),
  /** Human name. */
  name: z.string(),
  /** Current lifecycle state. */
  status: studyStatusSchema,
  /** ISO creation time. */
  createdAt: z.string(),
  /** ISO time of the last change. */
  updatedAt: z.string(),
  /** True when any rep came from the synthetic (simulated) judge. */
  simulated: z.boolean(),
  /** Why the study's rows are damaged (table, row, field), when the workspace's open check found it. */
  damaged: z.string().optional(),
});

/** What a spec would cost and take before it runs, and what stands in its way. */
export const studyEstimateSchema = z.object({
  items: z.number(),
  judges: z.number(),
  conditions: z.number(),
  reps: z.number(),
  /** Uncued reps: items × judges × reps. */
  uncuedReps: z.number(),
  /** Cued reps at most (under `opposite`, items without an uncued majority get none). */
  cuedReps: z.number(),
  totalReps: z.number(),
  /** Rough USD estimate; null when a judge's model has no price. */
  estimatedCostUsd: z.number().nullable(),
  /**
   * The same reps with every input token at full price: what the prompt cache saves is the
   * difference (the estimate assumes each turn re-reads the turn before from the cache).
   */
  estimatedCostWithoutCacheUsd: z.number().nullable().optional(),
  estimatedSeconds: z.number(),
  /**
   * True when every judge's time per rep is the median measured on this machine (the
   * workspace's finished reps of that provider and model), false when any is a default guess.
   */
  secondsMeasured: z.boolean(),
  /** Per judge: the measured median or the default the duration is built from. */
  secondsBasis: z.string(),
  /** Workspace disk the study's reps will take (runner/estimate-disk.ts), and how it was made. */
  estimatedDiskBytes: z.number(),
  diskBasis: z.string(),
  /** How the estimate was made (history or assumptions), in words. */
  basis: z.string(),
  warnings: z.array(
    z.object({
      code: z.string(),
      message: z.string(),
      fix: z.string().optional(),
      /** For `untrusted_endpoint`: the origin the window asks the user to confirm. */
      endpoint: z.string().optional(),
    }),
  ),
  simulated: z.boolean(),
  /**
   * Power before launch (shared/power.ts) from the first synthetic judge's persona; null when
   * the study has none (a real judge needs a baseline the user enters).
   */
  power: z
    .object({
      /** Harmful-flip rate compared against, as a proportion. */
      baseline: z.number(),
      baselineSource: z.string(),
      uncuedAccuracy: z.number(),
      /** Intra-item correlation of reps' flips. */
      icc: z.number(),
      designEffect: z.number(),
      /** Smallest detectable change at α = 0.05 and 80% power; null when none is. */
      minimumDetectableDifference: z.number().nullable(),
    })
    .nullable()
    .optional(),
});

/** Study methods. */
export const studyMethods = {
  /** Studies in the workspace, newest first. */
  listStudies: {
    request: z
      .object({
        /** At most this many studies (default 200). */
        limit: z.number().int().min(1).max(10_000).optional(),
      })
      .strict(),
    response: z.array(studySummarySchema),
  },
  /** A study by id, id prefix, exact name, or "latest" (not_found / bad_request otherwise). */
  resolveStudy: {
    request: z.object({ reference: z.string().min(1) }).strict(),
    response: z.object({ studyId: z.string() }),
  },
  /** Validates a spec and estimates it; problems come back as a bad_request error. */
  estimateStudy: {
    request: z.object({ spec: z.unknown() }).strict(),
    response: studyEstimateSchema,
  },
  /** Creates a study from a spec and starts running it in the engine. */
  createStudy: {
    request: z
      .object({
        /** The spec as data (the window), or `specFile` below. */
        spec: z.unknown().optional(),
        /**
         * A spec file's text as the user wrote it, JSON or YAML (the CLI): checked by the engine
         * with `NAME:LINE: field: problem` errors; `name` is only used in those messages.
         */
        specFile: z
          .object({ name: z.string().min(1).max(4096), text: z.string().max(4_000_000) })
          .strict()
          .optional(),
        /**
         * Judge endpoints (origins) the user confirmed at launch: keys may go there this
         * session. Never read from a spec or bundle.
         */
        trustedEndpoints: z.array(z.string().min(1)).max(32).optional(),
      })
      .strict()
      .refine((request) => (request.spec === undefined) !== (request.specFile === undefined), {
        message: 'give either spec or specFile',
      }),
    response: z.object({
      studyId: z.string(),
      /** The study's name, judges and reps per cell, as the spec set them. */
      name: z.string(),
      judgeCount: z.number().int().nonnegative(),
      reps: z.number().int().nonnegative(),
      /** Items of the study's suite it runs on. */
      itemCount: z.number().int().nonnegative(),
      /** Conditions (arms) of the study, the uncued baseline included. */
      conditionCount: z.number().int().nonnegative(),
    }),
  },
  /** The ready-made demo study (what `cuelab demo` runs), offered on the app's first start. */
  getDemoSpec: { request: z.object({}).strict(), response: studySpecSchema },
  /** The spec a study was created from (to save or reopen in the builder). */
  getStudySpec: { request: studyRef, response: studySpecSchema },
  studyProgress: { request: studyRef, response: studyProgressSchema },
  /** Pause, resume, cancel, or requeue failed reps. */
  controlStudy: {
    request: z
      .object({
        studyId: z.string().min(1),
        action: z.enum(['pause', 'resume', 'cancel', 'retry-failed']),
      })
      .strict(),
    response: studyProgressSchema,
  },
} as const;

/** Study events. */
export const studyEvents = {
  /** The list of studies changed (created, status moved, deleted). */
  'studies.changed': z.object({ studyId: z.string().optional() }),
  /** Progress of a study changed (a rep landed, a job failed, the status moved). */
  'study.progress': studyProgressSchema,
} as const;
