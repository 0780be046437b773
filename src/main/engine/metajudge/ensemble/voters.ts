/**
 * The meta-judge ensemble's configuration (§3.3, App. N, App. R): a list of voters, each a
 * model with provider settings, and a tie-breaker for a split vote. The paper's ensemble is
 * Opus-4.7, DeepSeek-R1 and Llama-4-Maverick with Opus-4.7 breaking a three-way split; every
 * voter is text-only (no tools), decodes at its provider default temperature (App. R: "We do not
 * set a temperature on the ensemble path"), and a model without a reasoning parameter gets a
 * prepended think-step-by-step instruction (App. R, Llama-4-Maverick).
 *
 * Keys come from the environment (apiKeyEnv names the variable), never from the file.
 */
import {
  requireTrustedEndpoint,
  trustFromEnv,
  createProvider,
  modelSettingsSchema,
  type Environment,
  type ModelProvider,
} from '../../providers';
import { redactingProvider } from '../../redaction';
import { z } from 'zod';
import { modelProviderKindSchema } from '../../../../shared/catalogue/providers';
import { environmentVariableShape } from '../../../../shared/secrets';
import { reasoningEffortSchema, thinkingSchema } from '../../../../shared/study-spec';
import { EngineError } from '../../errors';

/** One voter. */
export const voterSchema = z.strictObject({
  /** Short id; labels are stored under source `voter:<id>`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'lower-case letters, digits, ".", "_" and "-"'),
  provider: modelProviderKindSchema,
  model: z.string().trim().min(1),
  baseUrl: z.url().optional(),
  /** Name of the environment variable holding the key (never the key itself). */
  apiKeyEnv: z
    .string()
    .regex(environmentVariableShape, 'must be an environment variable name')
    .optional(),
  /** Omitted (the paper's setting, App. R): the provider's default temperature. */
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  /** Anthropic: extended / adaptive thinking (App. R: the Opus-4.7 voter runs adaptive). */
  thinking: thinkingSchema.optional(),
  /** OpenAI: `reasoning_effort`. */
  reasoningEffort: reasoningEffortSchema.optional(),
  timeoutMs: z.number().int().positive().optional(),
  /** App. R: prepend a think-step-by-step instruction (for a model with no reasoning parameter). */
  thinkStepByStep: z.boolean().default(false),
});

/** A parsed voter. */
export type Voter = z.output<typeof voterSchema>;

/** The ensemble: voters, tie-breaker, how many flips are asked at once. */
export const ensembleConfigSchema = z
  .strictObject({
    voters: z.array(voterSchema).min(1),
    /**
     * Decides a vote with no strict majority: the id of one of `voters` (its own label decides,
     * as Opus-4.7 does in the paper), or a separate voter asked only on a split. Default: the
     * first voter.
     */
    tieBreaker: z.union([z.string().min(1), voterSchema]).optional(),
    /** Flips asked at once (each asks every voter in parallel). */
    concurrency: z.number().int().min(1).max(64).default(4),
  })
  .superRefine((config, context) => {
    const ids = config.voters.map((voter) => voter.id);
    const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
    if (duplicate)
      context.addIssue({
        code: 'custom',
        message: `two voters are named "${duplicate}"`,
        path: ['voters'],
      });
    const tieBreaker = config.tieBreaker;
    if (typeof tieBreaker === 'string' && !ids.includes(tieBreaker))
      context.addIssue({
        code: 'custom',
        message: `the tie-breaker "${tieBreaker}" is not one of the voters (${ids.join(', ')})`,
        path: ['tieBreaker'],
      });
    if (typeof tieBreaker === 'object' && ids.includes(tieBreaker.id))
      context.addIssue({
        code: 'custom',
        message: `the separate tie-breaker's id "${tieBreaker.id}" is also a voter's; name the voter instead`,
        path: ['tieBreaker'],
      });
  });

/** A parsed ensemble configuration. */
export type EnsembleConfig = z.output<typeof ensembleConfigSchema>;

/** Parses an ensemble configuration; a bad_request error lists every problem with its path. */
export function parseEnsembleConfig(value: unknown, origin = 'the voters file'): EnsembleConfig {
  const parsed = ensembleConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`,
  );
  throw new EngineError(
    'bad_request',
    `${origin} is not a valid ensemble: ${problems.join('; ')}.`,
  );
}

/** The voter that breaks a split, and whether it is one of the voters. */
export function tieBreakerOf(config: EnsembleConfig): { voter: Voter; member: boolean } {
  const { tieBreaker } = config;
  if (typeof tieBreaker === 'object') return { voter: tieBreaker, member: false };
  const id = tieBreaker ?? config.voters[0]?.id;
  const voter = config.voters.find((candidate) => candidate.id === id) as Voter;
  return { voter, member: true };
}

/**
 * Builds a voter's provider; a missing key, or an endpoint or key variable the user has not
 * allowed in their own environment (a voters file may come from anyone), is
 * reported before any call (ProviderError auth). Its errors are redacted of every key in `env`.
 */
export function providerForVoter(voter: Voter, env: Environment): ModelProvider {
  requireTrustedEndpoint(voter, trustFromEnv(env));
  const settings = modelSettingsSchema.parse({
    provider: voter.provider,
    model: voter.model,
    ...(voter.baseUrl ? { baseUrl: voter.baseUrl } : {}),
    ...(voter.apiKeyEnv ? { apiKeyEnv: voter.apiKeyEnv } : {}),
    ...(voter.timeoutMs ? { timeoutMs: voter.timeoutMs } : {}),
  });
  return redactingProvider(createProvider(settings, env), () => env);
}
