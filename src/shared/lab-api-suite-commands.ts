/**
 * LabApi methods behind `cuelab suite list|show|import`: the catalogue with the
 * shipped suites imported first, each item described as `suite show` prints it, and a CueLab
 * suite file stored from a path on the engine's machine (the CLI's own path, or its upload).
 * Other harnesses' runs import through `importRuns` (lab-api-import.ts). Merged into `labMethods`.
 */
import { z } from 'zod';
import { suiteSummarySchema } from './lab-api-suite-summary';

/** Suite methods of the command line. */
export const suiteCommandMethods = {
  /** The suites (the shipped ones imported or refreshed first), or the item ids of one. */
  suiteCatalog: {
    request: z.object({ suiteId: z.string().min(1).optional() }).strict(),
    response: z.object({
      /** The workspace folder the answer is about. */
      workspace: z.string(),
      suites: z.array(suiteSummarySchema),
      /** The item ids of `suiteId`; empty when there is no such suite (or none was asked). */
      itemIds: z.array(z.string()),
    }),
  },
  /** Each item of a suite in a few lines: gold, size, environment, provenance. */
  describeSuite: {
    request: z.object({ suiteId: z.string().min(1) }).strict(),
    response: z.object({ workspace: z.string(), items: z.array(z.string()) }),
  },
  /** Validates a CueLab suite file at `path` and stores it, replacing one with the same id. */
  importSuiteFile: {
    request: z
      .object({
        path: z.string().min(1),
        /** The name errors call the file by (the user's own path); default `path`. */
        fileName: z.string().min(1).max(1024).optional(),
      })
      .strict(),
    response: z.object({ workspace: z.string(), suiteId: z.string(), items: z.number().int() }),
  },
} as const;
