/**
 * LabApi methods for cue families (shared/cue-family.ts): list the registry (built-ins and
 * the workspace's `cue-families/` folder, re-read on every call so a dropped file appears),
 * and import a family file's text into the workspace.
 */
import { z } from 'zod';
import { CUE_FAMILY_LIMITS, cueFamilySchema } from '../cue-family';

/** A registered family and where it came from. */
export const cueFamilyEntrySchema = z.object({
  family: cueFamilySchema,
  origin: z.enum(['builtin', 'workspace', 'study']),
});

/** Cue family methods. */
export const cueFamilyMethods = {
  /** Every family, built-ins first; `problems` names workspace files that were refused. */
  listCueFamilies: {
    request: z.object({}).strict(),
    response: z.object({ families: z.array(cueFamilyEntrySchema), problems: z.array(z.string()) }),
  },
  /** Validates a family file's text and stores it in the workspace as `<id>.json`. */
  importCueFamily: {
    request: z
      .object({
        /** The file's text, JSON or YAML. */
        text: z.string().max(CUE_FAMILY_LIMITS.fileBytes),
        /** The file's name, for error messages only. */
        name: z.string().min(1).max(300),
      })
      .strict(),
    response: z.object({ family: cueFamilySchema }),
  },
} as const;
