/**
 * What a `cuelab-mini` item is made from: a starting state, a scripted agent (its words and the
 * shell commands it runs), a deterministic verifier and the probes a careful judge would run.
 * The generator executes the agent in a container and records what really happened; the gold
 * label is whatever the verifier then says, so no recipe states a label.
 */
import type { Probe, ProbeExpectation } from '../../../../shared/suite-format';
import type { AgentMessage, Trajectory } from '../../../../shared/trajectory';
import { shellName } from '../../../../shared/substrates/shell';

/** The hard cases the suite mixes in; each kind appears on at least two items. */
export const hardCaseKinds = [
  /** The agent asserts success, even "verifies" it, and is wrong. */
  'confident-wrong',
  /** The agent worked on a small stand-in (a 12-row toy table, a sample file), not the real data. */
  'toy-data',
  /** Almost everything is done and it looks finished; one requirement is missed. */
  'near-miss',
  /** A bug report with two symptoms; the patch fixes one. */
  'half-fixed',
  /** The reported bug is fixed, but behaviour that worked before is broken. */
  'regression',
  /** The work is right, but errors along the way and a hedging summary make it look failed. */
  'looks-failed',
] as const;

/** One hard-case kind. */
export type HardCaseKind = (typeof hardCaseKinds)[number];

/** The substrates of the suite run in containers, with their dataset and App. J taxonomy. */
export const miniSubstrates = {
  filesystem: { dataset: 'mini-filesystem', taxonomy: 'aj-filesystem' },
  database: { dataset: 'mini-database', taxonomy: 'aj-postgres' },
  code: { dataset: 'mini-code', taxonomy: 'swe-bench-verified' },
  postgres: { dataset: 'mini-postgres', taxonomy: 'aj-postgres' },
} as const;

/** A substrate of the suite. */
export type MiniSubstrate = keyof typeof miniSubstrates;

/** One step of the scripted agent: what it says, then the shell command it runs. */
export interface AgentStep {
  thought: string;
  /** Runs with `sh -c` as the non-root agent user in the working folder. */
  command: string;
}

/** Everything an item is generated from. */
export interface MiniRecipe {
  id: string;
  substrate: MiniSubstrate;
  /** The task as the agent was given it. */
  task: string;
  /** The starting files, relative to the working folder. */
  files: Record<string, string>;
  /** Root shell commands that finish the starting state (seed a database, `git init`). */
  setup: string[];
  /** The SQLite database, relative to the working folder, for database items. */
  database?: string;
  /** The PostgreSQL database's starting dump (plain SQL), for postgres items. */
  postgres?: { sql: string; access: 'read-only' | 'read-write' };
  steps: AgentStep[];
  /** The agent's last message: its account of what it did (sometimes wrong). */
  final: string;
  /** Exit 0 = pass; run as the agent user in the final state. */
  verifier: string;
  /** Two to four checks: surface ones, and one decisive check mirroring the verifier. */
  probes: Probe[];
  /** Judged dimensions; `task_success` always, sometimes a graded one. */
  dimensions: string[];
  /** What makes the item hard, when it is. */
  hardCase?: { kind: HardCaseKind; why: string };
}

/** The item note for a hard case: `<kind>: <why>`. */
export function hardCaseNote(hardCase: { kind: HardCaseKind; why: string }): string {
  return `${hardCase.kind}: ${hardCase.why}`;
}

/** The hard-case kind an item note names, if any. */
export function hardCaseKindOf(note: string | undefined): HardCaseKind | undefined {
  const prefix = note?.split(':', 1)[0];
  return hardCaseKinds.find((kind) => kind === prefix);
}

/** Removes the common leading indentation of a template literal, and its first and last newline. */
export function dedent(text: string): string {
  const lines = text
    .replace(/^\n/, '')
    .replace(/\n[ \t]*$/, '')
    .split('\n');
  const indents = lines
    .filter((line) => line.trim())
    .map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const cut = Math.min(...indents, Infinity);
  return lines.map((line) => line.slice(Number.isFinite(cut) ? cut : 0)).join('\n');
}

/** A shell command that runs a Python script given on standard input. */
export function pythonScript(script: string): string {
  return `python3 -B - <<'PY'\n${dedent(script)}\nPY`;
}

/**
 * A verifier that writes hidden unit tests to /tmp (never into the agent's working tree) and
 * runs them against the project in `workdir`.
 */
export function hiddenTests(name: string, source: string, workdir = '/workspace'): string {
  const folder = `/tmp/hidden-${name}`;
  return [
    `mkdir -p ${folder} && cat > ${folder}/test_${name}.py <<'PY'`,
    dedent(source),
    'PY',
    `cd ${folder} && PYTHONPATH=${workdir} python3 -B -m unittest -q test_${name}`,
  ].join('\n');
}

/** Output contains `value`. */
export function contains(value: string): ProbeExpectation {
  return { kind: 'contains', value };
}

/** Output lacks `value`. */
export function lacks(value: string): ProbeExpectation {
  return { kind: 'not_contains', value };
}

/** Output has a line matching `pattern` (multiline regular expression). */
export function matches(pattern: string): ProbeExpectation {
  return { kind: 'matches', pattern };
}

/** The shell command exits `value`. */
export function exitsWith(value: number): ProbeExpectation {
  return { kind: 'exit_code', value };
}

interface ProbeFields {
  id: string;
  claim: string;
  expect: ProbeExpectation;
}

/** A surface check with the shell tool. */
export function shellCheck(fields: ProbeFields & { command: string }): Probe {
  return probe(shellName, { command: fields.command }, fields, false);
}

/** The decisive check with the shell tool. */
export function decisiveShell(fields: ProbeFields & { command: string }): Probe {
  return probe(shellName, { command: fields.command }, fields, true);
}

/** A surface check that reads a file. */
export function fileCheck(fields: ProbeFields & { path: string }): Probe {
  return probe('read_file', { path: fields.path }, fields, false);
}

/** A surface check that lists a folder. */
export function listCheck(fields: ProbeFields & { path: string }): Probe {
  return probe('list_dir', { path: fields.path }, fields, false);
}

/** A surface check with a read-only SQL query. */
export function sqlCheck(fields: ProbeFields & { sql: string }): Probe {
  return probe('sql_query', { sql: fields.sql }, fields, false);
}

/** The decisive check with a read-only SQL query. */
export function decisiveSql(fields: ProbeFields & { sql: string }): Probe {
  return probe('sql_query', { sql: fields.sql }, fields, true);
}

function probe(
  tool: Probe['tool'],
  input: Record<string, string>,
  fields: ProbeFields,
  decisive: boolean,
): Probe {
  return { id: fields.id, tool, input, expect: fields.expect, claim: fields.claim, decisive };
}

/**
 * A scripted agent's trajectory in the OpenAI shape: the task, one assistant turn per call (its
 * words and the tool call), the call's recorded result, and the agent's last message.
 */
export function agentTrajectory(
  task: string,
  calls: readonly { thought: string; tool: string; input: unknown }[],
  outputs: readonly string[],
  final: string,
): Trajectory {
  const messages: AgentMessage[] = [{ role: 'user', content: task }];
  calls.forEach((call, index) => {
    const id = `call_${index + 1}`;
    messages.push({
      role: 'assistant',
      content: call.thought,
      tool_calls: [
        {
          id,
          type: 'function',
          function: { name: call.tool, arguments: JSON.stringify(call.input) },
        },
      ],
    });
    messages.push({
      role: 'tool',
      content: outputs[index] ?? '',
      tool_call_id: id,
      name: call.tool,
    });
  });
  messages.push({ role: 'assistant', content: final });
  return messages;
}
