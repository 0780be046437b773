/**
 * LabApi methods for replay and mechanisms: flipped reps, a flipped rep beside its
 * uncued twin, the blind labelling queue, human labels, classification, agreement.
 */
import { z } from 'zod';
import { maxInlineBundleBase64 } from './transport-limits';

const flipKind = z.enum(['harmful', 'helpful']);

/** A flipped cued rep, as the replay list shows it. */
export const flipSummarySchema = z.object({
  repId: z.string(),
  twinRepId: z.string(),
  itemId: z.string(),
  judgeId: z.string(),
  dataset: z.string(),
  conditionKey: z.string(),
  direction: z.enum(['severity', 'leniency']),
  rep: z.number(),
  kind: flipKind,
  gold: z.string(),
  uncuedMajority: z.string(),
  cuedVerdict: z.string(),
  simulated: z.boolean(),
  /** Classifier labels (diff, ensemble); never human labels (annotation is blind). */
  classifierLabels: z.record(z.string(), z.string()),
});

const callSchema = z.object({
  index: z.number(),
  name: z.string(),
  input: z.unknown(),
  output: z.string(),
  isError: z.boolean(),
});

const runSchema = z.object({
  repId: z.string(),
  verdict: z.string().nullable(),
  rationale: z.string(),
  calls: z.array(callSchema),
  /** The opening prompt: system prompt, then the user messages (task, trajectory, cue). */
  prompt: z.array(z.string()),
  cue: z.object({ text: z.string(), direction: z.enum(['severity', 'leniency']) }).nullable(),
  confidence: z.number().nullable(),
});

/** A flipped rep beside its uncued twin, aligned by tool call, with the diff classifier's reading. */
export const flipPairSchema = z.object({
  flip: flipSummarySchema.omit({ classifierLabels: true }),
  baseline: runSchema,
  cued: runSchema,
  /** Rows of the side-by-side view: indexes into each run's calls, null where one run has none. */
  alignment: z.array(z.object({ baseline: z.number().nullable(), cued: z.number().nullable() })),
  diff: z.object({
    /** First aligned row where the runs differ; null when they never do. */
    divergenceRow: z.number().nullable(),
    divergenceIndex: z.number().nullable(),
    /** Claims in the cued rationale no tool result supports. */
    unsupportedClaims: z.array(z.string()),
    /** Calls of the uncued run the cued run skipped (indexes into baseline calls). */
    skippedChecks: z.array(z.number()),
    /** Indexes of cued calls with the same name and input as an uncued call. */
    sharedCued: z.array(z.number()),
  }),
  /** Set only when the request was not blind. */
  labels: z.record(z.string(), z.string()).nullable(),
});

/** Replay and mechanism methods. */
export const mechanismMethods = {
  listFlips: {
    request: z.object({ studyId: z.string().min(1) }).strict(),
    response: z.array(flipSummarySchema),
  },
  /** A pair for replay; `blind` leaves out every label (annotation). */
  loadFlipPair: {
    request: z.object({ repId: z.string().min(1), blind: z.boolean().optional() }).strict(),
    response: flipPairSchema,
  },
  labellingQueue: {
    request: z
      .object({
        studyId: z.string().min(1),
        annotator: z.string().min(1).max(80),
        kind: flipKind.optional(),
      })
      .strict(),
    response: z.object({
      annotator: z.string(),
      entries: z.array(
        z.object({
          repId: z.string(),
          itemId: z.string(),
          judgeId: z.string(),
          dataset: z.string(),
          kind: flipKind,
        }),
      ),
      done: z.number(),
      total: z.number(),
    }),
  },
  saveHumanLabel: {
    request: z
      .object({
        repId: z.string().min(1),
        annotator: z.string().min(1).max(80),
        label: z.string().min(1),
        subMode: z.string().optional(),
        rationale: z.string().max(5000).optional(),
      })
      .strict(),
    response: z.object({ saved: z.boolean() }),
  },
  /** Labels every flip with the deterministic diff classifier (and the true mechanism of synthetic reps). */
  classifyFlips: {
    request: z.object({ studyId: z.string().min(1) }).strict(),
    response: z.object({ flips: z.number(), harmful: z.number(), helpful: z.number() }),
  },
  /** A study bundle as bytes (gzipped JSON, base64) for the window to download or save. */
  exportBundle: {
    request: z.object({ studyId: z.string().min(1) }).strict(),
    response: z.object({
      fileName: z.string(),
      base64: z.string(),
      bytes: z.number(),
      /** Reps and labels the bundle holds (what `cuelab export-bundle` reports). */
      reps: z.number().int(),
      labels: z.number().int(),
      redacted: z.array(z.string()),
    }),
  },
  /**
   * Opens a bundle: small ones inline (base64, within the server's JSON body limit), any size
   * by `path` on the engine's machine (the CLI, the desktop shell), or streamed as the raw
   * body of `POST /api/openBundle` (lab-client.ts `uploadBundle`).
   */
  openBundle: {
    request: z
      .object({
        base64: z.string().min(1).max(maxInlineBundleBase64).optional(),
        /** Absolute path of the bundle file where the engine runs. */
        path: z.string().min(1).optional(),
        replace: z.boolean().optional(),
      })
      .strict()
      .refine((request) => (request.base64 === undefined) !== (request.path === undefined), {
        message: 'give the bundle as base64 or as path (one of them)',
      }),
    response: z.object({
      studyId: z.string(),
      name: z.string(),
      reps: z.number(),
      labels: z.number(),
      /** True when a study with the same id was replaced (`replace`). */
      replaced: z.boolean(),
      /** True when the bundle's suite was new to this workspace. */
      suiteCreated: z.boolean(),
      /** Suite items the bundle added to an existing suite. */
      itemsAdded: z.number(),
    }),
  },
} as const;
