/**
 * The environment an MCPMark run left behind, rebuilt from
 * what MCPMark ships beside its tasks. Filesystem: the category's initial state
 * (`test_environments/<category>/`, or the `<category>.zip` MCPMark downloads) with the agent's
 * file operations replayed. Postgres: a state dump in the run folder (`state.sql`, or a
 * `pg_dump --format=custom` `state.backup`) when there is one; else the category's initial
 * database (`postgres_state/<category>.backup` as MCPMark's docs lay it out, or `.sql`) with
 * the agent's `execute_sql` statements replayed against the real server. When none is found
 * the item stays trajectory-only and its note says what was missing.
 */
import type { EnvironmentSpec, PostgresSpec } from '../../../../shared/suite-format';
import type { AgentMessage } from '../../../../shared/trajectory';
import { shellQuote } from '../../environments';
import { replayFileOperations, type FileState } from './file-replay';
import type { ImportContext } from './types';
import { readZip } from './zip';

/** Largest state (initial files or dump) carried in an item; beyond it, trajectory only. */
export const maxStateBytes = 32 * 1024 * 1024;
/** Base64 per setup command: a command is one argv word, and Linux caps one at 128 KiB. */
const chunkChars = 96 * 1024;

/** What the run's environment became, and what the user should know about it. */
export interface RunState {
  environment: Partial<EnvironmentSpec>;
  note?: string;
}

/** Tools of the Postgres MCP servers whose statements are replayed (postgres-mcp; the reference server's `query`). */
const sqlTools = new Set(['execute_sql', 'query']);

/** The filesystem run's end state, or a trajectory-only environment saying why not. */
export function filesystemState(
  context: ImportContext,
  category: string,
  trajectory: readonly AgentMessage[],
): RunState {
  const initial = initialFiles(context, category);
  if (typeof initial === 'string') return trajectoryOnly(initial);
  const outcome = replayFileOperations(initial.files, trajectory);
  if ('problem' in outcome) {
    return trajectoryOnly(`the agent's file operations cannot be replayed: ${outcome.problem}`);
  }
  return {
    environment: stateEnvironment(outcome.state),
    note:
      `end state: ${initial.label} with ${outcome.applied} file operation(s) of the agent ` +
      `replayed (it worked in ${outcome.root})`,
  };
}

function initialFiles(
  context: ImportContext,
  category: string,
): { files: Map<string, Buffer>; label: string } | string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(category))
    return `category "${category}" is not a folder name`;
  const folder = context.state(`test_environments/${category}`);
  if (folder) {
    const files = new Map<string, Buffer>();
    let total = 0;
    for (const path of folder.files()) {
      const bytes = folder.readBytes(path);
      if (!bytes) return `${folder.label}/${path} cannot be read`;
      total += bytes.length;
      if (total > maxStateBytes) return `${folder.label} is larger than ${maxStateBytes} bytes`;
      files.set(path, bytes);
    }
    return { files, label: folder.label };
  }
  const archive = context.state('test_environments')?.readBytes(`${category}.zip`);
  if (!archive) {
    return (
      `the task's initial state was not found (test_environments/${category}/ or ` +
      `test_environments/${category}.zip beside the run or the tasks folder)`
    );
  }
  try {
    return { files: zipFiles(archive, category), label: `test_environments/${category}.zip` };
  } catch (error) {
    return `test_environments/${category}.zip: ${(error as Error).message}`;
  }
}

/** A zip's files; the archive's one top folder (MCPMark zips hold `<category>/…`) is dropped. */
function zipFiles(archive: Buffer, category: string): Map<string, Buffer> {
  const entries = readZip(archive).filter(
    (entry) => !entry.name.endsWith('/') && !entry.name.startsWith('__MACOSX/'),
  );
  const prefix = entries.every((entry) => entry.name.startsWith(`${category}/`))
    ? `${category}/`
    : '';
  const files = new Map<string, Buffer>();
  let total = 0;
  for (const entry of entries) {
    const bytes = entry.read();
    total += bytes.length;
    if (total > maxStateBytes) throw new Error(`larger than ${maxStateBytes} bytes unpacked`);
    files.set(entry.name.slice(prefix.length), bytes);
  }
  return files;
}

/**
 * A replayed state as an environment: text files as `files`; bytes that are not UTF-8 and
 * empty folders as root `setup` steps (the spec's files are text).
 */
function stateEnvironment(state: FileState): Partial<EnvironmentSpec> {
  const files: Record<string, string> = {};
  const setup: string[] = [];
  for (const [path, bytes] of [...state.files].sort(([a], [b]) => a.localeCompare(b))) {
    const text = bytes.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(bytes)) {
      files[path] = text;
      continue;
    }
    const encoded = bytes.toString('base64');
    const staging = `/tmp/cuelab-state-${setup.length}.b64`;
    for (let at = 0; at < encoded.length || at === 0; at += chunkChars) {
      setup.push(`printf '%s' '${encoded.slice(at, at + chunkChars)}' >> ${staging}`);
    }
    const target = shellQuote(path);
    setup.push(
      `mkdir -p "$(dirname ${target})" && base64 -d ${staging} > ${target} && rm ${staging}`,
    );
  }
  const holding = [...state.files.keys()];
  for (const folder of [...state.folders].sort()) {
    if (holding.some((path) => path.startsWith(`${folder}/`))) continue;
    setup.push(`mkdir -p ${shellQuote(folder)}`);
  }
  return { files, shell: false, ...(setup.length ? { setup } : {}) };
}

/** The Postgres run's end state in the item's own server, or trajectory-only saying why not. */
export function postgresState(
  context: ImportContext,
  runFolder: string,
  category: string,
  trajectory: readonly AgentMessage[],
): RunState {
  const database = category
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/^[^a-z_]/, '_');
  const prefix = runFolder === '.' ? '' : `${runFolder}/`;
  const endSql = readIfPresent(context, `${prefix}state.sql`);
  const endArchive = readIfPresent(context, `${prefix}state.backup`);
  if (endSql || endArchive) {
    const dump = (endSql ?? endArchive)!;
    if (dump.length > maxStateBytes)
      return trajectoryOnly(`the run's state dump is larger than ${maxStateBytes} bytes`);
    return {
      environment: {
        shell: postgresShell,
        postgres: postgresSpec(
          database,
          endSql ? { sql: endSql.toString('utf8') } : { archive: dump.toString('base64') },
        ),
      },
      note: `end state: the run's own dump (${prefix}${endSql ? 'state.sql' : 'state.backup'})`,
    };
  }
  const folder = context.state('postgres_state');
  const archive = folder?.readBytes(`${category}.backup`);
  const sql = archive ? undefined : folder?.readBytes(`${category}.sql`);
  if (!folder || (!archive && !sql)) {
    return trajectoryOnly(
      `the task's initial database was not found (postgres_state/${category}.backup or .sql ` +
        'beside the run or the tasks folder)',
    );
  }
  if ((archive ?? sql)!.length > maxStateBytes) {
    return trajectoryOnly(`${folder.label}/${category} is larger than ${maxStateBytes} bytes`);
  }
  const statements = replayedStatements(trajectory);
  if (typeof statements === 'string') return trajectoryOnly(statements);
  return {
    environment: {
      shell: postgresShell,
      postgres: postgresSpec(
        database,
        archive ? { archive: archive.toString('base64') } : { sql: sql!.toString('utf8') },
      ),
      ...(statements.length ? { setup: statements.map(psqlStep) } : {}),
    },
    note:
      `end state: ${folder.label}/${category}${archive ? '.backup' : '.sql'} with the agent's ` +
      `${statements.length} successful SQL statement(s) replayed`,
  };
}

/**
 * A shell beside the server, as the built-in mini-postgres items have: the Docker backend
 * mounts a shell-less judge's root read-only, and the server needs to write its log and data.
 */
const postgresShell = true;

function postgresSpec(database: string, dump: { sql: string } | { archive: string }): PostgresSpec {
  return { database, owner: 'agent', access: 'read-only', ...dump };
}

function readIfPresent(context: ImportContext, path: string): Buffer | undefined {
  return context.has(path) ? context.readBytes(path).bytes : undefined;
}

/**
 * The SQL of every `execute_sql` call whose result was not an error, in order: what changed
 * the server in the run. A failed statement changed nothing there, so it is not replayed.
 */
function replayedStatements(trajectory: readonly AgentMessage[]): string[] | string {
  const results = new Map<string, string>();
  for (const message of trajectory) {
    if (message.role === 'tool' && message.tool_call_id)
      results.set(message.tool_call_id, message.content ?? '');
  }
  const statements: string[] = [];
  for (const message of trajectory) {
    for (const call of message.tool_calls ?? []) {
      if (!sqlTools.has(call.function.name)) continue;
      let args: unknown;
      try {
        args = JSON.parse(call.function.arguments || '{}');
      } catch {
        return `call ${call.id} (${call.function.name}): its arguments are not JSON`;
      }
      const sql =
        (args as { sql?: unknown; query?: unknown } | null)?.sql ??
        (args as { query?: unknown } | null)?.query;
      if (typeof sql !== 'string')
        return `call ${call.id} (${call.function.name}): no "sql" to replay`;
      if (/^\s*error\b/i.test(results.get(call.id) ?? '')) continue;
      statements.push(sql);
    }
  }
  return statements;
}

/**
 * One replayed statement, run as the database's owner (the container's PGUSER). `-c` sends it
 * to the server as one query, as the MCP server did, unless it starts with a backslash (then
 * psql runs it as a meta-command, as root here): the leading comment line makes sure it never
 * does, so `\! …` reaches the server as the SQL it is (and fails there).
 */
export function psqlStep(sql: string): string {
  let marker = 'CUELAB_SQL';
  while (sql.includes(marker)) marker += '_';
  return `psql -X -q -v ON_ERROR_STOP=1 -o /dev/null -c "$(cat <<'${marker}'\n-- replayed by CueLab\n${sql}\n${marker}\n)"`;
}

function trajectoryOnly(reason: string): RunState {
  return { environment: { files: {}, shell: false }, note: `trajectory only: ${reason}` };
}
