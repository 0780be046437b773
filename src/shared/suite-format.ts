/**
 * The suite format: what one judged item is. The environments issue extends the environment
 * spec (Docker images, recorded end-state archives, verifiers); the judge needs the task,
 * the trajectory, what to judge, and where its tools act.
 */
import { z } from 'zod';
import { buildContextProblem } from './build-context';
import { trajectorySchema } from './trajectory';

/**
 * Why a path is unsafe on any OS the engine runs on, or undefined: `..` segments, backslashes
 * (a separator on Windows), drive letters (`C:`), UNC/device prefixes and NUL bytes.
 */
export function unsafePathReason(path: string): string | undefined {
  if (path.includes('\0')) return 'must not contain NUL bytes';
  if (path.includes('\\')) return 'must not contain a backslash';
  if (/(^|\/)[A-Za-z]:/.test(path)) return 'must not name a drive (C:)';
  if (path.startsWith('//')) return 'must not be a UNC or device path';
  if (path.split('/').includes('..')) return 'must not contain ".."';
  return undefined;
}

const relativePath = z
  .string()
  .min(1)
  .superRefine((path, context) => {
    const reason = path.startsWith('/') ? 'must be relative' : unsafePathReason(path);
    if (reason)
      context.addIssue({
        code: 'custom',
        message: `${reason} (a relative path inside the environment)`,
      });
  });

const absolutePath = z
  .string()
  .regex(/^\/[^\0]*$/, 'must be an absolute path')
  .superRefine((path, context) => {
    const reason = unsafePathReason(path);
    if (reason) context.addIssue({ code: 'custom', message: reason });
  });

/** Limits on each container of the Docker backend. */
export const containerResourcesSchema = z
  .object({
    /** CPUs (fractions allowed); default 1. */
    cpus: z.number().positive().max(64).optional(),
    /** Memory in MiB (no swap on top); default 1024. */
    memoryMb: z.number().int().min(16).optional(),
    /** Most processes at once; default 256. */
    pids: z.number().int().min(8).optional(),
  })
  .strict();

const sqlName = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'lower-case letters, digits and "_" (a PostgreSQL name)');

/**
 * A PostgreSQL server holding the agent's end state (the `postgres` substrate, AJ-Bench
 * Postgres in the paper's §2). The server runs inside the item's container, without network;
 * the state is loaded from a dump, then `setup` and `replay` run against the live server.
 */
export const postgresSpecSchema = z
  .object({
    /** The database the agent worked in; default `app`. */
    database: sqlName.default('app'),
    /** The role the agent worked as (owns the database; `PGUSER` in the container); default `agent`. */
    owner: sqlName
      .refine((name) => !['postgres', 'judge_readonly'].includes(name), {
        message: 'postgres and judge_readonly are reserved',
      })
      .default('agent'),
    /** A plain SQL dump (pg_dump's default format, or any SQL) loaded with psql as `owner`. */
    sql: z.string().optional(),
    /** A file among `files` holding a plain SQL dump, loaded the same way. */
    dumpFile: relativePath.optional(),
    /** A `pg_dump --format=custom` archive, base64-encoded, loaded with pg_restore as `owner`. */
    archive: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')
      .optional(),
    /**
     * What the judge's `sql_query` may do: `read-only` (default; it connects as a role that can
     * only read) or `read-write` (as `owner`, for items whose judging needs writes).
     */
    access: z.enum(['read-only', 'read-write']).default('read-only'),
  })
  .strict();

/** One page of an item's web snapshot. */
export const webPageSchema = z
  .object({
    /** The page's address; `fetch_url` answers it exactly (a trailing "/" and "#..." ignored). */
    url: z
      .string()
      .url()
      .refine((url) => /^https?:\/\//.test(url), { message: 'must be an http(s) URL' }),
    title: z.string().min(1),
    /** The page as text (what `fetch_url` returns). */
    content: z.string(),
  })
  .strict();

/**
 * The web an item's judge sees (the `web` substrate, AJ-Bench Deep Search): a snapshot of the
 * pages the agent saw plus distractors, searched by a local index. Nothing leaves the machine.
 */
export const webSpecSchema = z
  .object({
    pages: z.array(webPageSchema).min(1).max(5000),
    /** Results per `web_search` call; default 5. */
    resultsPerQuery: z.number().int().min(1).max(20).optional(),
  })
  .strict()
  .refine((web) => new Set(web.pages.map((page) => page.url)).size === web.pages.length, {
    message: 'every page needs its own url',
    path: ['pages'],
  });

/**
 * Where the judge's tools act, as the agent left it. `files`, `database` and `shell` serve
 * both backends; every other field is for the Docker backend, optional, with the default
 * named beside it (so specs written before these fields existed mean what they meant).
 */
export const environmentSpecSchema = z
  .object({
    /** Files of the agent's final state, path (relative to `workdir`) → content. */
    files: z.record(relativePath, z.string()).default({}),
    /** A SQLite database among `files`, or created from `sql`, that `sql_query` reads. */
    database: z.object({ path: relativePath, sql: z.string().optional() }).strict().optional(),
    /** A PostgreSQL server in the container that `sql_query` queries (Docker backend). */
    postgres: postgresSpecSchema.optional(),
    /** A web snapshot served to `web_search` and `fetch_url` (no container needed). */
    web: webSpecSchema.optional(),
    /** Whether the judge may run shell commands (needs the Docker backend). */
    shell: z.boolean().default(false),
    /** Image to start from; default the bootstrapped `cuelab/base` (`cuelab env bootstrap`). */
    image: z.string().min(1).optional(),
    /**
     * A Dockerfile to build and start from instead of `image`: FROM a local image (e.g.
     * `cuelab/base:latest`), or any image where a registry answers.
     */
    dockerfile: z.string().min(1).optional(),
    /**
     * Files sent beside `dockerfile` in its build context, path → base64 bytes, so `COPY x /y`
     * finds them (a Terminal-Bench task folder, say); only with `dockerfile`, at most
     * `buildContextLimits` in files and decoded bytes.
     */
    buildContext: z.record(relativePath, z.string()).optional(),
    /** Absolute folder that holds `files` and where commands start; default `/workspace`. */
    workdir: absolutePath.optional(),
    /** Shell commands run as root in `workdir`, in order, after `files`; each must exit 0. */
    setup: z.array(z.string().min(1)).optional(),
    /**
     * Replay the agent's recorded shell tool calls from the trajectory, in order, after `setup`
     * (AJ-Bench style); default false. `files` are then the state before the agent acted.
     */
    replay: z.boolean().optional(),
    /** Tool names whose calls `replay` runs; default shell, bash, execute_bash, run_shell_command. */
    replayTools: z.array(z.string().min(1)).min(1).optional(),
    /**
     * Who the judge's commands run as: default "agent" (a non-root user the snapshot creates
     * when the image lacks it), "root", or any user name or uid[:gid].
     */
    user: z
      .string()
      .regex(/^([a-z_][a-z0-9_-]{0,31}|\d+(:\d+)?)$/, 'a user name or uid[:gid]')
      .optional(),
    /**
     * Shell lines the judge's shell runs before each of its commands, as the judge's user
     * (e.g. activating the conda env a SWE-bench image's tests need); default none.
     */
    shellInit: z.string().min(1).max(4096).optional(),
    /** Network for setup, replay and the judge; default false (no network interface but lo). */
    network: z.boolean().optional(),
    /** CPU, memory and process limits per container. */
    resources: containerResourcesSchema.optional(),
  })
  .strict()
  .refine((spec) => !(spec.image && spec.dockerfile), {
    message: 'give either image or dockerfile, not both',
    path: ['dockerfile'],
  })
  .superRefine((spec, context) => {
    if (!spec.buildContext) return;
    const problem = spec.dockerfile
      ? buildContextProblem(spec.buildContext)
      : 'is only used with dockerfile';
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['buildContext'] });
  })
  .refine((spec) => !(spec.postgres && spec.database), {
    message: 'give either a SQLite database or postgres, not both',
    path: ['postgres'],
  })
  .refine((spec) => !spec.postgres?.dumpFile || spec.files[spec.postgres.dumpFile] !== undefined, {
    message: 'names a file that is not among files',
    path: ['postgres', 'dumpFile'],
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
export const probeSchema = z
  .object({
    id: z.string().min(1),
    tool: z.enum(['shell', 'read_file', 'list_dir', 'sql_query', 'web_search', 'fetch_url']),
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
    substrate: z.enum(['filesystem', 'database', 'postgres', 'code', 'web', 'terminal']),
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
