/**
 * LabApi methods for importing other harnesses' runs (issue 11): the window previews what a
 * folder or file would import (items, gold labels, what is skipped and why) and then stores it.
 */
import { z } from 'zod';
import { importFormats } from './suite-format';

/** One run that became an item. */
export const importedRunSchema = z.object({
  id: z.string(),
  format: z.enum(importFormats),
  /** The file it came from, relative to the folder imported. */
  source: z.string(),
  sha256: z.string(),
  gold: z.enum(['pass', 'fail']).nullable(),
  messages: z.number().int(),
  /** The environment in a few words (an image, a Dockerfile, trajectory only). */
  environment: z.string(),
  flags: z.array(z.string()),
});

/** A file that did not become an item. */
export const skippedRunSchema = z.object({ path: z.string(), reason: z.string() });

/** Methods of the Import screen. */
export const importMethods = {
  /** Reads runs at a path on the engine's machine; stores them as a suite when `save`. */
  importRuns: {
    request: z
      .object({
        path: z.string().min(1),
        format: z.enum(['auto', ...importFormats]).default('auto'),
        name: z.string().min(1).max(200).optional(),
        tasksDir: z.string().min(1).optional(),
        toolOutputLimit: z.union([z.number().int().min(200), z.literal('unbounded')]).optional(),
        keepFlagged: z.boolean().optional(),
        /** False: only preview; nothing is stored. */
        save: z.boolean(),
      })
      .strict(),
    response: z.object({
      suiteId: z.string(),
      suiteName: z.string(),
      saved: z.boolean(),
      imported: z.array(importedRunSchema),
      skipped: z.array(skippedRunSchema),
    }),
  },
} as const;

export type ImportedRun = z.output<typeof importedRunSchema>;
export type SkippedRun = z.output<typeof skippedRunSchema>;
