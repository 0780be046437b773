/**
 * LabApi methods behind the command line's file commands (every command on LabApi):
 * classify a study, labels in and out as CSV, a results file as a study, a study as Inspect
 * logs, and the prompt of an item from a suite file. Files the user names live on the CLI's
 * machine: a file to read reaches the engine by `path` (in-process, or an upload staged with
 * `uploadImportFiles`), and what a command writes comes back as text for the CLI to write, so
 * a remote engine never writes where the user did not point. Merged into `labMethods`.
 */
import { z } from 'zod';
import { promptPreviewSchema } from './lab-api-prompt';
import { repConditionSchema } from './rep-condition';

const counts = z.record(z.string(), z.number().int());

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

/** One file a command writes, as text: `name` is a bare file name (no folder, no `..`). */
export const writtenFileSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^/\\]+$/, 'must be a bare file name')
    .refine((name) => name !== '.' && name !== '..', 'must be a bare file name'),
  text: z.string(),
});

/** Results file formats `importResults` reads. */
export const resultsFormats = ['csv', 'jsonl'] as const;

/** Command-line file methods. */
export const commandMethods = {
  /**
   * Labels every flipped rep of a study: the trajectory diff always, the synthetic truth for
   * simulated reps, and with `ensemble` (a voters file's content, checked by the engine) the
   * LLM ensemble and App. G gold. Progress goes out as `classify.progress` events.
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
  /** A study's labels as CSV: human (default), every source's (`all`), or a blind `sheet`. */
  exportLabels: {
    request: z
      .object({
        studyId: z.string().min(1),
        all: z.boolean().optional(),
        /** An annotator: a blank blind sheet of the flips they have not labelled (App. P). */
        sheet: z.string().min(1).max(80).optional(),
      })
      .strict()
      .refine((request) => !(request.all && request.sheet !== undefined), {
        message: 'give sheet or all, not both',
      }),
    response: z.object({ text: z.string(), rows: z.number().int() }),
  },
  /** Human labels from a CSV file at `path` on the engine's machine; all or nothing. */
  importLabels: {
    request: z
      .object({
        path: z.string().min(1),
        /** The name errors call the file by (the user's own path); default `path`. */
        fileName: z.string().min(1).max(1024).optional(),
      })
      .strict(),
    response: z.object({
      imported: z.number().int(),
      skipped: z.number().int(),
      annotators: z.array(z.string()),
    }),
  },
  /** Per-rep verdicts of another harness (CSV or JSONL at `path`) stored as a study. */
  importResults: {
    request: z
      .object({
        path: z.string().min(1),
        name: z.string().trim().min(1).max(200).optional(),
        format: z.enum(resultsFormats).optional(),
      })
      .strict(),
    response: z.object({
      studyId: z.string(),
      name: z.string(),
      format: z.enum(resultsFormats),
      reps: z.number().int(),
      items: z.number().int(),
      judges: z.number().int(),
      conditions: z.array(z.string()),
      simulated: z.boolean(),
      warnings: z.array(z.string()),
    }),
  },
  /** A study's reps as Inspect AI logs, one per judge and condition, for the CLI to write. */
  exportInspect: {
    request: z
      .object({
        studyId: z.string().min(1),
        /** Inspect's JSON log, or its zipped `.eval` (sent as base64). */
        format: z.enum(['json', 'eval']).optional(),
      })
      .strict(),
    response: z.object({
      logs: z.array(
        writtenFileSchema
          .omit({ text: true })
          .extend({
            text: z.string().optional(),
            base64: z.string().optional(),
            judge: z.string(),
            condition: z.string(),
            samples: z.number().int(),
          })
          .refine((log) => (log.text === undefined) !== (log.base64 === undefined), {
            message: 'a log has either text or base64',
          }),
      ),
    }),
  },
  /**
   * The prompt one rep of an item would send: the suite is a suite id of the workspace (a
   * built-in one is imported on first use) or a suite file at `suitePath` on the engine's machine.
   */
  previewItemPrompt: {
    request: z
      .object({
        suiteId: z.string().min(1).optional(),
        suitePath: z.string().min(1).optional(),
        itemId: z.string().min(1),
        condition: repConditionSchema.optional(),
      })
      .strict()
      .refine((request) => (request.suiteId === undefined) !== (request.suitePath === undefined), {
        message: 'give the suite as suiteId or as suitePath (one of them)',
      }),
    response: promptPreviewSchema,
  },
} as const;

/** Events of the command-line methods. */
export const commandEvents = {
  /** The ensemble labelled another flip of `studyId` (classifyStudy). */
  'classify.progress': z.object({
    studyId: z.string(),
    done: z.number().int(),
    total: z.number().int(),
  }),
} as const;
