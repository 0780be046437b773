/**
 * LabApi methods for the connection check (Settings → Connection check, the same check as
 * `cuelab providers check`): one tiny tool-using request to an endpoint, and the stored results
 * a study's launch reads (a study refuses to launch against an endpoint whose last check failed).
 */
import { z } from 'zod';
import { modelProviderKindSchema, toolDialectSchema } from '../catalogue/providers';
import { environmentVariableShape } from '../secrets';

/** What one connection check found (engine/providers/check.ts). */
export const providerCheckSchema = z.object({
  provider: z.string(),
  model: z.string(),
  baseUrl: z.string().nullable(),
  /** ISO time of the check. */
  checkedAt: z.string(),
  /** True when the endpoint answered with a tool call CueLab could read. */
  ok: z.boolean(),
  /** Why not, when not. */
  problem: z.string().nullable(),
  toolCalls: z.boolean(),
  /** The tool-call dialect the reply came in (structured, hermes, json). */
  dialect: z.string().nullable(),
  reasoning: z.boolean(),
  /** `on`: the repeat read from the prompt cache; `off`: it did not; null: never answered. */
  caching: z.enum(['on', 'off']).nullable(),
  latencyMs: z.number().nullable(),
  /** US dollars per million tokens from the price table; null when the model has no row. */
  price: z
    .object({
      input: z.number(),
      output: z.number(),
      cacheRead: z.number().nullable(),
      cacheWrite: z.number().nullable(),
    })
    .nullable(),
});

/** Provider methods. */
export const providerMethods = {
  /**
   * Checks one endpoint and stores the result. Naming a `baseUrl` here is the user's consent to
   * send the key to it for this check (as `--base-url` is on the command line).
   */
  checkProvider: {
    request: z
      .object({
        provider: modelProviderKindSchema,
        model: z.string().trim().min(1),
        baseUrl: z.url().optional(),
        apiKeyEnv: z.string().regex(environmentVariableShape).optional(),
        dialect: toolDialectSchema.optional(),
      })
      .strict(),
    response: providerCheckSchema,
  },
  /** Every stored check of this workspace, newest first. */
  listProviderChecks: {
    request: z.object({}).strict(),
    response: z.array(providerCheckSchema),
  },
} as const;
