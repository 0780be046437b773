/**
 * LabApi methods for studies, results and settings (the window's builder, runs, results and
 * settings screens). Merged into `labMethods` in lab-api.ts.
 */
import { z } from 'zod';
import { studySpecSchema } from './study-spec';
import { studyProgressSchema } from './study-progress';

const studyRef = z.object({ studyId: z.string().min(1) }).strict();

/** One item as the builder lists it. */
export const suiteItemSummarySchema = z.object({
  id: z.string(),
  dataset: z.string(),
  substrate: z.string(),
  gold: z.enum(['pass', 'fail']).nullable(),
  dimensions: z.array(z.string()),
  taxonomy: z.string().nullable(),
  /** Whether a rep needs Docker (a shell or a replayed end state). */
  needsDocker: z.boolean(),
  note: z.string().nullable(),
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

/** A report table (the same numbers `cuelab report` prints). */
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
  rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
  notes: z.array(z.string()),
  /** True when any rep behind the table came from the synthetic judge. */
  simulated: z.boolean(),
  /** Reps the table was computed from. */
  reps: z.number(),
});

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

/** Status of the judge environments (Docker and the base image). */
export const environmentStatusSchema = z.object({
  dockerAvailable: z.boolean(),
  dockerVersion: z.string().optional(),
  problem: z.string().optional(),
  fix: z.string().optional(),
  baseImage: z.object({ tag: z.string(), present: z.boolean(), sizeBytes: z.number().optional() }),
  /** The `cuelab/postgres` image items with a PostgreSQL state start from. */
  postgresImage: z.object({
    tag: z.string(),
    present: z.boolean(),
    sizeBytes: z.number().optional(),
  }),
  bootstrapRunning: z.boolean(),
  /** Which images are being built now. */
  building: z.array(z.enum(['base', 'postgres'])),
});

/** Study, results and settings methods. */
export const studyMethods = {
  /** Items of a suite, for the builder's filters. */
  listSuiteItems: {
    request: z.object({ suiteId: z.string().min(1) }).strict(),
    response: z.array(suiteItemSummarySchema),
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
  /** One report table of a study. */
  reportTable: {
    request: z.object({ studyId: z.string().min(1), table: z.string().min(1) }).strict(),
    response: reportTableSchema,
  },
  /** Report tables as CSV text (what the window downloads). */
  reportCsv: {
    request: z.object({ studyId: z.string().min(1), table: z.string().min(1) }).strict(),
    response: z.object({ csv: z.string(), fileName: z.string() }),
  },
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
  /** Hands an API key to the engine for this session (never stored, never echoed back). */
  setSecret: {
    request: z.object({ name: z.string().regex(/^[A-Z_][A-Z0-9_]*$/), value: z.string() }).strict(),
    response: z.object({ name: z.string(), set: z.boolean() }),
  },
  /** Which keys the engine has, each shown only as its last 4 characters. */
  listSecrets: {
    request: z.object({}).strict(),
    response: z.array(
      z.object({ name: z.string(), source: z.enum(['environment', 'session']), hint: z.string() }),
    ),
  },
  environmentStatus: { request: z.object({}).strict(), response: environmentStatusSchema },
  /**
   * Starts building a bootstrapped image, the base one unless `image` says `postgres`
   * (progress arrives as `env.bootstrap` events).
   */
  startBootstrap: {
    request: z.object({ image: z.enum(['base', 'postgres']).default('base') }).strict(),
    response: environmentStatusSchema,
  },
} as const;

/** Events of the study and settings screens. */
export const studyEvents = {
  /** Progress of a study changed (a rep landed, a job failed, the status moved). */
  'study.progress': studyProgressSchema,
  /** Base-image bootstrap progress. */
  'env.bootstrap': z.object({
    message: z.string(),
    done: z.boolean(),
    error: z.string().optional(),
    /** The image the line is about (absent: the base image). */
    image: z.enum(['base', 'postgres']).optional(),
  }),
} as const;
