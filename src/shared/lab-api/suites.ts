/**
 * LabApi methods for suites: the window's listings and the builder's item filters, and what
 * `cuelab suite list|show|import` needs (the catalogue with the shipped suites imported first,
 * each item as `suite show` prints it, a CueLab suite file stored from a path on the engine's
 * machine). Other harnesses' runs import through `importRuns` (import.ts).
 */
import { z } from 'zod';

/** One suite of judged items, as listed. */
export const suiteSummarySchema = z.object({
  /** Stable identifier, e.g. `cuelab-mini`. */
  id: z.string(),
  /** Human name. */
  name: z.string(),
  /** One-paragraph description. */
  description: z.string(),
  /** Number of items in the suite. */
  itemCount: z.number().int().nonnegative(),
  /** Where it came from: shipped with CueLab or imported by the researcher. */
  origin: z.enum(['builtin', 'imported']),
});

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

/** Suite methods. */
export const suiteMethods = {
  /** Suites in the workspace. */
  listSuites: { request: z.object({}).strict(), response: z.array(suiteSummarySchema) },
  /** Items of a suite, for the builder's filters. */
  listSuiteItems: {
    request: z.object({ suiteId: z.string().min(1) }).strict(),
    response: z.array(suiteItemSummarySchema),
  },
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

/** Suite events. */
export const suiteEvents = {
  /** The list of suites changed (imported, removed). */
  'suites.changed': z.object({ suiteId: z.string().optional() }),
} as const;
