/**
 * The judge's tools: shell, read_file, list_dir, sql_query, web_search and fetch_url
 *, read_trajectory and submit_verdict. Arguments come from a model, so each is parsed before use; a bad call
 * returns an error the model can read, never a thrown exception.
 */
import { z } from 'zod';
import { isEnvironmentLost } from '../environments';
import type { ToolSpec } from '../providers';
import type { JudgeEnvironment, Readout, ToolLimits } from '../contract';
import { deepFreeze } from './frozen';
import { verdictJsonSchema } from './readouts';
import { trajectoryPage } from './trajectory-render';

/** Name of the verdict tool; a call to it ends the loop. */
export const submitVerdictTool = 'submit_verdict';

const argumentSchemas = {
  shell: z.object({ command: z.string().min(1) }).strict(),
  read_file: z.object({ path: z.string().min(1) }).strict(),
  list_dir: z.object({ path: z.string().min(1) }).strict(),
  sql_query: z.object({ sql: z.string().min(1) }).strict(),
  web_search: z.object({ query: z.string().min(1).max(500) }).strict(),
  fetch_url: z.object({ url: z.string().min(1).max(2000) }).strict(),
  read_trajectory: z
    .object({
      start_line: z.number().int().min(1).max(1_000_000),
      end_line: z.number().int().min(1).max(1_000_000),
    })
    .strict(),
} as const;

type InvestigationTool = keyof typeof argumentSchemas;

const descriptions: Record<InvestigationTool, string> = {
  shell: "Run a shell command in the agent's final environment and return its output.",
  read_file: "Read a file from the agent's final environment.",
  list_dir: "List a directory in the agent's final environment.",
  sql_query:
    "Run a SQL query against the environment's database (read-only unless the environment " +
    'description says otherwise).',
  web_search: 'Search the web (an offline snapshot); returns titles, URLs and snippets.',
  fetch_url: 'Fetch a web page (from the offline snapshot) and return its text.',
  read_trajectory: "Return the agent trajectory's numbered lines start_line..end_line.",
};

/** The tools offered for an environment and readout, in a fixed order. */
export function judgeToolSpecs(environment: JudgeEnvironment, readout: Readout): ToolSpec[] {
  const names: InvestigationTool[] = [];
  if (environment.capabilities.shell) names.push('shell');
  if (environment.capabilities.files) names.push('read_file', 'list_dir');
  if (environment.capabilities.sql) names.push('sql_query');
  if (environment.capabilities.web) names.push('web_search', 'fetch_url');
  names.push('read_trajectory');
  const specs = names.map(investigationToolSpec);
  specs.push(verdictToolSpec(readout));
  return specs;
}

/**
 * Tool specs are built once and shared, frozen, by every rep: turning zod into JSON Schema
 * was a tenth of a rep's CPU. The array around them is each prompt's own.
 */
const investigationSpecs = new Map<InvestigationTool, ToolSpec>();
const verdictSpecs = new WeakMap<Record<string, unknown>, ToolSpec>();

function investigationToolSpec(name: InvestigationTool): ToolSpec {
  let spec = investigationSpecs.get(name);
  if (!spec) {
    spec = deepFreeze({
      name,
      description: descriptions[name],
      inputSchema: jsonSchemaOf(argumentSchemas[name]),
    });
    investigationSpecs.set(name, spec);
  }
  return spec;
}

function verdictToolSpec(readout: Readout): ToolSpec {
  // The verdict JSON Schema is itself shared per readout shape, so it keys its tool spec.
  const inputSchema = verdictJsonSchema(readout);
  let spec = verdictSpecs.get(inputSchema);
  if (!spec) {
    spec = Object.freeze({
      name: submitVerdictTool,
      description: 'Submit your final verdict. Call this exactly once, when you have finished.',
      inputSchema,
    });
    verdictSpecs.set(inputSchema, spec);
  }
  return spec;
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** What a tool call produced, as the model will read it. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
}

/** Context a tool call runs in. */
export interface ToolContext {
  environment: JudgeEnvironment;
  trajectoryLines: readonly string[];
  limits: ToolLimits;
  offered: ReadonlySet<string>;
  signal?: AbortSignal;
}

/** Runs one investigation tool call. */
export async function runTool(
  name: string,
  input: unknown,
  context: ToolContext,
): Promise<ToolOutcome> {
  if (!context.offered.has(name) || !(name in argumentSchemas)) {
    return error(
      `There is no tool named "${name}" here. Available: ${[...context.offered].join(', ')}.`,
    );
  }
  const parsed = argumentSchemas[name as InvestigationTool].safeParse(parseMaybeJson(input));
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`,
    );
    return error(`Bad arguments for ${name}: ${problems.join('; ')}.`);
  }
  const args = parsed.data as Record<string, unknown>;
  const { environment, limits } = context;
  try {
    switch (name as InvestigationTool) {
      case 'shell': {
        const result = await environment.exec(args.command as string, limits, context.signal);
        const parts = [
          `exit code: ${result.exitCode ?? 'killed'}${result.timedOut ? ' (timed out)' : ''}`,
        ];
        if (result.stdout) parts.push(`stdout:\n${result.stdout}`);
        if (result.stderr) parts.push(`stderr:\n${result.stderr}`);
        if (result.truncated) parts.push(`[output truncated at ${limits.maxOutputBytes} bytes]`);
        return { content: parts.join('\n'), isError: false };
      }
      case 'read_file': {
        const file = await environment.readFile(args.path as string, limits);
        return {
          content: file.truncated
            ? `${file.content}\n[truncated at ${limits.maxOutputBytes} bytes]`
            : file.content,
          isError: false,
        };
      }
      case 'list_dir': {
        const entries = await environment.listDir(args.path as string);
        const text = entries.map(
          (entry) => `${entry.type === 'directory' ? 'd' : '-'} ${entry.size}\t${entry.name}`,
        );
        return { content: text.length ? text.join('\n') : '(empty directory)', isError: false };
      }
      case 'sql_query': {
        const result = await environment.sqlQuery(args.sql as string, limits);
        const rows = result.rows.map((row) => row.map(formatCell).join(' | '));
        const text = [result.columns.join(' | '), ...rows].join('\n');
        const note = result.truncated ? `\n[rows truncated at ${limits.maxRows}]` : '';
        return { content: `${text}\n(${result.rows.length} rows)${note}`, isError: false };
      }
      case 'web_search': {
        if (!environment.webSearch) return error('This environment has no web.');
        const query = args.query as string;
        const hits = await environment.webSearch(query, limits, context.signal);
        if (hits.length === 0) return { content: `No results for "${query}".`, isError: false };
        const text = hits.map(
          (hit, index) => `${index + 1}. ${hit.title}\n   ${hit.url}\n   ${hit.snippet}`,
        );
        return { content: text.join('\n'), isError: false };
      }
      case 'fetch_url': {
        if (!environment.fetchUrl) return error('This environment has no web.');
        const page = await environment.fetchUrl(args.url as string, limits, context.signal);
        const note = page.truncated ? `\n[truncated at ${limits.maxOutputBytes} bytes]` : '';
        return {
          content: `URL: ${page.url}\nTitle: ${page.title}\n\n${page.content}${note}`,
          isError: false,
        };
      }
      case 'read_trajectory': {
        const first = args.start_line as number;
        const last = args.end_line as number;
        const total = context.trajectoryLines.length;
        if (first > total)
          return error(`The trajectory has ${total} lines; start_line ${first} is past the end.`);
        return { content: trajectoryPage(context.trajectoryLines, first, last), isError: false };
      }
    }
  } catch (failure) {
    // A dead environment is not something the judge can reason about: the rep is void.
    if (isEnvironmentLost(failure)) throw failure;
    return error(`${name} failed: ${failure instanceof Error ? failure.message : String(failure)}`);
  }
}

function formatCell(value: unknown): string {
  if (value === null) return 'NULL';
  if (Buffer.isBuffer(value)) return `<blob ${value.length} bytes>`;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value) ?? '';
}

function parseMaybeJson(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

function error(content: string): ToolOutcome {
  return { content, isError: true };
}
