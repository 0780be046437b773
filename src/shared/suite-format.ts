/**
 * The suite format: what one judged item is. The environments issue extends the environment
 * spec (Docker images, recorded end-state archives, verifiers); the judge needs the task,
 * the trajectory, what to judge, and where its tools act.
 */
import { z } from 'zod';
import { shellName } from './substrates/shell';
import { buildContextProblem } from './build-context';
import { filesEnvironmentSchema, filesName } from './substrates/files';
import {
  postgresEnvironmentSchema,
  postgresName,
  type postgresSpecSchema,
} from './substrates/postgres';
import { sqliteEnvironmentSchema } from './substrates/sqlite';
import {
  environmentBaseSchema,
  type containerResourcesSchema,
} from './substrates/environment-base';
import type { webPageSchema, webSpecSchema } from './substrates/web';
import { trajectorySchema } from './trajectory';

/**
 * The substrates an environment can be, each a member its own file defines. A document that
 * names no substrate is the first member whose own state it carries, so the order matters where
 * two could claim it: PostgreSQL before SQLite, as the old schema refused both together.
 */
const environmentMembers = [
  postgresEnvironmentSchema,
  sqliteEnvironmentSchema,
  filesEnvironmentSchema,
] as const;

type EnvironmentMember = (typeof environmentMembers)[number];

const sharedKeys = new Set(['substrate', ...Object.keys(environmentBaseSchema.shape)]);

/** The fields a member adds to the base: its own state (`postgres`, `database`; none for files). */
function stateKeys(member: EnvironmentMember): string[] {
  return Object.keys(member.shape).filter((key) => !sharedKeys.has(key));
}

/**
 * The member a document written before `substrate` existed means, from the state it carries;
 * files when it carries none. A document naming its substrate, or one that is not an object,
 * is left for the union to judge.
 */
function withSubstrate(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  if ('substrate' in value) return value;
  const fields = value as Record<string, unknown>;
  const member =
    environmentMembers.find((candidate) =>
      stateKeys(candidate).some((key) => fields[key] !== undefined),
    ) ?? filesEnvironmentSchema;
  return { substrate: member.shape.substrate.value, ...fields };
}

/**
 * Where the judge's tools act, as the agent left it: one member per substrate, told apart by
 * `substrate`. The checks that span the shared fields stay here, worded as before.
 */
export const environmentSpecSchema = z
  .preprocess(withSubstrate, z.discriminatedUnion('substrate', environmentMembers))
  .superRefine((spec, context) => {
    if (spec.image && spec.dockerfile)
      context.addIssue({
        code: 'custom',
        message: 'give either image or dockerfile, not both',
        path: ['dockerfile'],
      });
    if (spec.buildContext) {
      const problem = spec.dockerfile
        ? buildContextProblem(spec.buildContext)
        : 'is only used with dockerfile';
      if (problem) context.addIssue({ code: 'custom', message: problem, path: ['buildContext'] });
    }
  });

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

/** How a probe's output is read: does it show the claim holds? */
export const probeExpectationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('contains'), value: z.string() }).strict(),
  z.object({ kind: z.literal('not_contains'), value: z.string() }).strict(),
  z.object({ kind: z.literal('matches'), pattern: z.string() }).strict(),
  z.object({ kind: z.literal('exit_code'), value: z.number().int() }).strict(),
]);

/**
 * One check a careful judge would run on the item, for the synthetic judge: a tool
 * call, how to read its output, and whether it is the decisive check. The synthetic judge
 * runs these as real tool calls and forms its verdict from what they return.
 */
/** Every tool a probe may use: the judge's investigation tools. */
export const probeToolNames = [
  shellName,
  'read_file',
  'list_dir',
  'sql_query',
  'web_search',
  'fetch_url',
] as const;

export const probeSchema = z
  .object({
    id: z.string().min(1),
    tool: z.enum(probeToolNames),
    input: z.record(z.string(), z.unknown()),
    expect: probeExpectationSchema,
    /** The claim the probe checks, in words ("logs/ holds both .log files"). */
    claim: z.string().min(1),
    /** A decisive probe settles the verdict; the others are surface checks. */
    decisive: z.boolean().default(false),
  })
  .strict();

/** A soft tool-call budget: a whole number of tool results, or 'unbounded' (App. R). */
export const toolBudgetSettingSchema = z.union([z.number().int().min(1), z.literal('unbounded')]);

/** Formats `cuelab suite import` reads; `cuelab` is CueLab's own suite file. */
export const importFormats = [
  'mini-swe-agent',
  'swe-agent',
  'terminal-bench',
  'harbor',
  'mcpmark',
  'inspect',
] as const;

/** One of `importFormats`. */
export type ImportFormat = (typeof importFormats)[number];

/**
 * Where an imported item came from: the file it was read from, relative to the
 * folder the user pointed at, its format, and the file's sha256, so a bundle or the window can
 * say exactly which run an item is. `flags` name what looks wrong with the run (e.g. the agent
 * never ran) when the user imported it anyway.
 */
export const itemProvenanceSchema = z
  .object({
    source: z.string().min(1),
    format: z.enum(importFormats),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex'),
    /** The benchmark's own id of the instance or task (e.g. a SWE-bench instance id). */
    instance: z.string().min(1).optional(),
    /** The agent or model that produced the run, when the source names it. */
    agent: z.string().min(1).optional(),
    flags: z.array(z.string().min(1)).optional(),
  })
  .strict();

/**
 * How the judge's prompt renders this item's trajectory: tool outputs longer than
 * `toolOutputLimit` characters keep their head and tail, with a marked cut in between, so long
 * real runs (SWE-bench ones are 50-180 KB) fit the model's context. Absent: nothing is cut.
 */
export const trajectoryRenderSchema = z
  .object({ toolOutputLimit: z.union([z.number().int().min(200), z.literal('unbounded')]) })
  .strict();

/** One judged item. */
export const suiteItemSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-" only'),
    /** Dataset the item belongs to, for per-dataset analysis (e.g. `aj-filesystem`). */
    dataset: z.string().min(1),
    substrate: z.enum(['filesystem', 'database', postgresName, 'code', 'web', 'terminal']),
    /** The task the agent was given. */
    task: z.string().min(1),
    trajectory: trajectorySchema,
    environment: environmentSpecSchema.default({
      substrate: filesName,
      files: {},
      shell: false,
    }),
    /** Dimension ids this item may be judged on (App. G); task_success by default. */
    dimensions: z.array(z.string().min(1)).min(1).default(['task_success']),
    /** Taxonomy id for the error-attribution readout. */
    taxonomy: z.string().optional(),
    /** Ground truth from the item's deterministic verifier. */
    gold: z.enum(['pass', 'fail']).optional(),
    /**
     * The deterministic verifier: a shell command run in the final state (exit 0 = pass), or
     * for a web item the exact answer its final message must give (`Answer: ...`).
     */
    verifier: z
      .union([
        z.object({ command: z.string().min(1) }).strict(),
        z
          .object({
            /** Accepted answers, compared case- and space-insensitively. */
            answer: z.array(z.string().min(1)).min(1),
          })
          .strict(),
      ])
      .optional(),
    /** Checks a careful judge would run, in order (used by the synthetic judge). */
    probes: z.array(probeSchema).optional(),
    /** What makes this item hard, in words (e.g. "a near-miss that looks finished"). */
    note: z.string().optional(),
    /** Where an imported item came from. */
    provenance: itemProvenanceSchema.optional(),
    /** How its trajectory is rendered for the judge. */
    render: trajectoryRenderSchema.optional(),
  })
  .strict();

/** A suite file. */
export const suiteFileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and "-" only'),
    name: z.string().min(1),
    description: z.string().default(''),
    taxonomies: z.array(taxonomySchema).default([]),
    /** Soft tool-call budget for this suite's items (App. R: 40, or unbounded); studies may override. */
    toolBudget: toolBudgetSettingSchema.optional(),
    items: z.array(suiteItemSchema).min(1),
  })
  .strict();

export type EnvironmentSpec = z.output<typeof environmentSpecSchema>;
export type ContainerResources = z.output<typeof containerResourcesSchema>;
export type SuiteTaxonomy = z.output<typeof taxonomySchema>;
export type SuiteItem = z.output<typeof suiteItemSchema>;
export type SuiteFile = z.output<typeof suiteFileSchema>;
export type ToolBudgetSetting = z.output<typeof toolBudgetSettingSchema>;
export type Probe = z.output<typeof probeSchema>;
export type PostgresSpec = z.output<typeof postgresSpecSchema>;
export type WebSpec = z.output<typeof webSpecSchema>;
export type WebPage = z.output<typeof webPageSchema>;
export type ProbeExpectation = z.output<typeof probeExpectationSchema>;
