/**
 * LabApi methods for a study packed to leave the workspace or enter another: a CueLab bundle
 * (reps, labels, suite) out and in, and the study as Inspect AI logs. What is exported comes
 * back as data, so a remote engine never writes where the user did not point.
 */
import { z } from 'zod';
import { maxInlineBundleBase64 } from '../transport-limits';

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

/** Bundle methods. */
export const bundleMethods = {
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
  /** A study's reps as Inspect AI logs, one per judge and condition, for the CLI to write. */
  exportInspect: {
    request: z
      .object({
        studyId: z.string().min(1),
        /** Inspect's JSON log, or its zipped `.eval` (sent as base64). */
        format: z.enum(['json', 'eval']).optional(),
        /**
         * Only the log numbered `log` (from 0, in the order they come without it): a study at
         * the paper's scale has gigabytes of transcripts, more than one answer can carry, so
         * the CLI asks for its logs one at a time.
         */
        log: z.number().int().nonnegative().optional(),
      })
      .strict(),
    response: z.object({
      /** How many logs the study has (all of them are in `logs` unless `log` was asked). */
      count: z.number().int().nonnegative(),
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
} as const;

/** The file work a person may wait on, named by the method that asked for it. */
export const fileJobMethods = [
  'exportBundle',
  'openBundle',
  'exportInspect',
  'exportLabels',
  'importRuns',
  'importResults',
  'importSuiteFile',
] as const;

/** Events of file work. */
export const fileEvents = {
  /**
   * How far an export, a bundle's opening or an import has come (it runs on the engine's files
   * worker): `done` of `total` steps, and the step now under way.
   */
  'files.progress': z.object({
    method: z.enum(fileJobMethods),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    step: z.string().optional(),
  }),
} as const;
