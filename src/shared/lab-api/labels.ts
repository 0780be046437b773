/**
 * LabApi methods for labels of flipped reps: the blind labelling queue and a human's label
 * (the Annotate screen), and labels in and out as CSV (`cuelab labels`). A file to read reaches
 * the engine by `path` on its machine; what is exported comes back as text for the CLI to write.
 */
import { z } from 'zod';
import { flipKindSchema } from './mechanisms';

/** Label methods. */
export const labelMethods = {
  labellingQueue: {
    request: z
      .object({
        studyId: z.string().min(1),
        annotator: z.string().min(1).max(80),
        kind: flipKindSchema.optional(),
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
          kind: flipKindSchema,
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
} as const;
