/**
 * The suite format: what one judged item is. The environments issue extends the environment
 * spec (Docker images, recorded end-state archives, verifiers); the judge needs the task,
 * the trajectory, what to judge, and where its tools act.
 */
import { z } from 'zod';
import { trajectorySchema } from './trajectory';

const relativePath = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('/') && !path.split('/').includes('..'), {
    message: 'must be a relative path inside the environment, without ".."',
  });

/** Where the judge's tools act, as the agent left it. */
export const environmentSpecSchema = z
  .object({
    /** Files of the agent's final state, path → content (the no-exec snapshot backend). */
    files: z.record(relativePath, z.string()).default({}),
    /** A SQLite database among `files`, or created from `sql`, that `sql_query` reads. */
    database: z.object({ path: relativePath, sql: z.string().optional() }).strict().optional(),
    /** Whether the judge may run shell commands (needs the Docker backend). */
    shell: z.boolean().default(false),
  })
  .strict();

/** An error taxonomy a suite defines (App. J ships three built in). */
export const taxonomySchema = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    categories: z
      .array(
        z
          .object({
            id: z.string().min(1),
            name: z.string().min(1),
            definition: z.string().default(''),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

/** One judged item. */
export const suiteItemSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-" only'),
    /** Dataset the item belongs to, for per-dataset analysis (e.g. `aj-filesystem`). */
    dataset: z.string().min(1),
    substrate: z.enum(['filesystem', 'database', 'code', 'web', 'terminal']),
    /** The task the agent was given. */
    task: z.string().min(1),
    trajectory: trajectorySchema,
    environment: environmentSpecSchema.default({ files: {}, shell: false }),
    /** Dimension ids this item may be judged on (App. G); task_success by default. */
    dimensions: z.array(z.string().min(1)).min(1).default(['task_success']),
    /** Taxonomy id for the error-attribution readout. */
    taxonomy: z.string().optional(),
    /** Ground truth from the item's deterministic verifier. */
    gold: z.enum(['pass', 'fail']).optional(),
  })
  .strict();

/** A suite file. */
export const suiteFileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and "-" only'),
    name: z.string().min(1),
    description: z.string().default(''),
    taxonomies: z.array(taxonomySchema).default([]),
    items: z.array(suiteItemSchema).min(1),
  })
  .strict();

export type EnvironmentSpec = z.output<typeof environmentSpecSchema>;
export type SuiteTaxonomy = z.output<typeof taxonomySchema>;
export type SuiteItem = z.output<typeof suiteItemSchema>;
export type SuiteFile = z.output<typeof suiteFileSchema>;
