/**
 * LabApi methods for flips and their mechanisms: flipped reps, a flipped rep beside its uncued
 * twin (Replay), and classifying a study's flips (diff classifier, synthetic truth, ensemble).
 */
import { z } from 'zod';

/** Which way a flip went: against gold (harmful, §3.1) or towards it (helpful, App. F). */
export const flipKindSchema = z.enum(['harmful', 'helpful']);
const counts = z.record(z.string(), z.number().int());

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
  kind: flipKindSchema,
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
  /**
   * Reasoning the model returned (a `reasoning_content` / `reasoning` field, `<think>` text or
   * Anthropic thinking), per 0-based turn that had any.
   */
  reasoning: z.array(z.object({ turn: z.number().int(), text: z.string() })),
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

/** What `classifyStudy` did (§3.3, App. G, H, N). */
export const classifySummarySchema = z.object({
  flips: z.number().int(),
  harmful: z.number().int(),
  helpful: z.number().int(),
  /** Diff labels by label. */
  diff: counts,
  /** Reps given a `truth` label (synthetic judge). */
  truth: z.number().int(),
  /** App. G consensus gold; null without voters. */
  gold: z
    .object({
      cases: z.number().int(),
      asked: z.number().int(),
      skipped: z.number().int(),
      pass: z.number().int(),
      fail: z.number().int(),
      undecided: z.number().int(),
      invalidVotes: z.number().int(),
    })
    .nullable(),
  /** The LLM ensemble's work; null when no ensemble was asked. */
  ensemble: z
    .object({
      asked: z.number().int(),
      skipped: z.number().int(),
      labels: counts,
      invalidVotes: z.number().int(),
    })
    .nullable(),
});

/** Mechanism methods. */
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
  /**
   * Labels every flipped rep of a study: the trajectory diff always, the synthetic truth for
   * simulated reps, and with `ensemble` (a voters file's content, checked by the engine) the
   * LLM ensemble and App. G gold. The window's Classify button sends only `studyId`; the CLI
   * may add voters. Progress goes out as `classify.progress` events.
   */
  classifyStudy: {
    request: z
      .object({
        studyId: z.string().min(1),
        ensemble: z.unknown().optional(),
        /** The name errors call the voters file by (the user's own path). */
        votersFile: z.string().min(1).max(1024).optional(),
        /** Ask the ensemble again for reps it already labelled. */
        force: z.boolean().optional(),
      })
      .strict(),
    response: z.object({
      studyId: z.string(),
      simulated: z.boolean(),
      summary: classifySummarySchema,
      /** Diff against the synthetic truth (mechanism-validation); null without truth labels. */
      validation: z
        .object({ accuracy: z.number().nullable(), attributable: z.number().int() })
        .nullable(),
    }),
  },
} as const;

/** Mechanism events. */
export const mechanismEvents = {
  /** The ensemble labelled another flip of `studyId` (classifyStudy). */
  'classify.progress': z.object({
    studyId: z.string(),
    done: z.number().int(),
    total: z.number().int(),
  }),
} as const;
