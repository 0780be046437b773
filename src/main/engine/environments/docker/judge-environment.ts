/**
 * The Docker JudgeEnvironment: a rep's own container. `exec` runs `sh -c` as the item's user
 * in its working directory; `readFile`, `listDir` and `sqlQuery` are small commands in the same
 * container (so they see exactly what the shell sees, permissions included).
 */
import type Docker from 'dockerode';
import { z } from 'zod';
import type {
  DirEntry,
  EnvironmentCapabilities,
  ExecResult,
  JudgeEnvironment,
  SqlResult,
  ToolLimits,
} from '../../contract';
import { EnvironmentLostError } from '../lost';
import { isNotFound, withDockerDeadline } from './client';
import { execInContainer, type RawExecResult } from './exec';
import type { DockerItemSettings } from './item-settings';
import type { PreparedItem } from './prepare';

// Lists one folder as "type|size|name" lines (stat's %F is "regular file", "directory", ...).
const listScript = `cd -- "$1" || exit 1
shift
for f in .[!.]* ..?* *; do { [ -e "$f" ] || [ -L "$f" ]; } && set -- "$@" "$f"; done
[ "$#" -eq 0 ] && exit 0
exec stat -c '%F|%s|%n' -- "$@"`;

// Read-only query with columns, a row cap and blobs described rather than dumped.
const sqlScript = `import json, sqlite3, sys, urllib.parse
path, sql, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    con = sqlite3.connect('file:' + urllib.parse.quote(path) + '?mode=ro', uri=True)
    con.execute('PRAGMA query_only = ON')
    cur = con.execute(sql)
    if cur.description is None:
        raise Exception('only queries that return rows are allowed (the database is read-only)')
    rows = cur.fetchmany(cap + 1)
except Exception as error:
    sys.stderr.write(str(error))
    sys.exit(1)
def cell(value):
    return '<blob %d bytes>' % len(value) if isinstance(value, bytes) else value
json.dump({'columns': [d[0] for d in cur.description],
           'rows': [[cell(v) for v in row] for row in rows[:cap]],
           'truncated': len(rows) > cap}, sys.stdout)`;

const sqlOutputBytes = 16 * 1024 * 1024;

/** What the judge is told about a rep container (also shown by the prompt preview). */
export function dockerDescription(
  settings: Pick<DockerItemSettings, 'workdir' | 'user' | 'network'>,
  databasePath: string | undefined,
  stateDescription = '',
): string {
  return (
    "A Linux container holding the final state of the agent's environment. " +
    `Commands start in ${settings.workdir} and run as user "${settings.user}"` +
    `${settings.network ? '' : ', without network access'}. ` +
    'Relative paths are relative to that folder.' +
    (databasePath ? ` sql_query reads the SQLite database ${databasePath}.` : '') +
    stateDescription
  );
}

/** The JudgeEnvironment of one rep container. */
export class DockerJudgeEnvironment implements JudgeEnvironment {
  readonly capabilities: EnvironmentCapabilities;
  readonly description: string;
  private lost: EnvironmentLostError | undefined;

  constructor(
    private readonly container: Docker.Container,
    private readonly prepared: PreparedItem,
  ) {
    const { settings, databasePath, state } = prepared;
    const sql = databasePath !== undefined || state?.query !== undefined;
    this.capabilities = { shell: true, files: true, sql };
    this.description = dockerDescription(settings, databasePath, state?.description);
  }

  async exec(command: string, limits: ToolLimits, signal?: AbortSignal): Promise<ExecResult> {
    const { shellInit } = this.prepared.settings;
    const script = shellInit ? `${shellInit}\n${command}` : command;
    const result = await this.run(['sh', '-c', script], limits, limits.maxOutputBytes, signal);
    return {
      stdout: result.stdout.toString('utf8'),
      stderr: result.stderr.toString('utf8'),
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      truncated: result.truncated,
    };
  }

  async readFile(
    path: string,
    limits: ToolLimits,
  ): Promise<{ content: string; truncated: boolean }> {
    const cap = limits.maxOutputBytes;
    const result = await this.run(['head', '-c', String(cap + 1), '--', path], limits, cap + 4096);
    this.assertSucceeded(result, `cannot read ${path}`);
    return {
      content: result.stdout.subarray(0, cap).toString('utf8'),
      truncated: result.stdout.length > cap,
    };
  }

  async listDir(path: string): Promise<DirEntry[]> {
    const limits = { commandTimeoutMs: 30_000, maxOutputBytes: 4 * 1024 * 1024, maxRows: 0 };
    const result = await this.run(
      ['sh', '-c', listScript, 'sh', path],
      limits,
      limits.maxOutputBytes,
    );
    this.assertSucceeded(result, `cannot list ${path}`);
    return result.stdout
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line): DirEntry => {
        const [kind = '', size = '0', ...name] = line.split('|');
        return { name: name.join('|'), type: entryType(kind), size: Number(size) || 0 };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async sqlQuery(sql: string, limits: ToolLimits): Promise<SqlResult> {
    const query = this.prepared.state?.query;
    if (query) {
      const run = (argv: string[], runLimits: ToolLimits, maxOutputBytes: number, user?: string) =>
        this.run(argv, runLimits, maxOutputBytes, undefined, user);
      try {
        return await query(run, sql, limits);
      } catch (error) {
        // psql also fails when the server process died with its container (the connection
        // is lost before psql itself is killed): that is the environment, not the query.
        if (error instanceof EnvironmentLostError) throw error;
        const problem = await containerProblem(this.container, 1000);
        if (problem) throw this.markLost(problem, error);
        throw error;
      }
    }
    const database = this.prepared.databasePath;
    if (!database) throw new Error('this environment has no database');
    if (!this.prepared.tools.python3 && this.prepared.tools.sqlite3) {
      return this.sqlQueryWithCli(database, sql, limits);
    }
    const argv = ['python3', '-c', sqlScript, database, sql, String(limits.maxRows)];
    const result = await this.run(argv, limits, sqlOutputBytes);
    this.assertSucceeded(result, 'the query failed');
    return containerJson(result.stdout, sqlResultSchema);
  }

  /** For images with the sqlite3 command but no python3. */
  private async sqlQueryWithCli(
    database: string,
    sql: string,
    limits: ToolLimits,
  ): Promise<SqlResult> {
    const result = await this.run(
      ['sqlite3', '-readonly', '-json', database, sql],
      limits,
      sqlOutputBytes,
    );
    this.assertSucceeded(result, 'the query failed');
    const text = result.stdout.toString('utf8').trim();
    const objects = text ? containerJson(Buffer.from(text), sqlRowsSchema) : [];
    const columns = Object.keys(objects[0] ?? {});
    return {
      columns,
      rows: objects.slice(0, limits.maxRows).map((row) => columns.map((column) => row[column])),
      truncated: objects.length > limits.maxRows,
    };
  }

  /** Throws EnvironmentLostError unless the rep's container is still running. */
  async verifyIntact(): Promise<void> {
    if (this.lost) throw this.lost;
    const problem = await containerProblem(this.container);
    if (problem) throw this.markLost(problem);
  }

  private async run(
    argv: string[],
    limits: ToolLimits,
    maxOutputBytes: number,
    signal?: AbortSignal,
    user = this.prepared.settings.user,
  ): Promise<RawExecResult> {
    if (this.lost) throw this.lost;
    let result: RawExecResult;
    try {
      result = await execInContainer(this.container, argv, {
        user,
        workdir: this.prepared.settings.workdir,
        timeoutMs: limits.commandTimeoutMs,
        maxOutputBytes,
        useTimeoutCommand: this.prepared.tools.timeout,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      // An exec on a stopped (409) or removed (404) container fails: say which, if so.
      const problem = await containerProblem(this.container);
      if (problem) throw this.markLost(problem, error);
      throw error;
    }
    // A killed command (137, or no exit code) may be the container dying under it; an
    // out-of-memory kill of the command alone leaves the container running and is a result.
    if (result.exitCode === null || result.exitCode < 0 || result.exitCode === 137) {
      const problem = await containerProblem(this.container, 1000);
      if (problem) throw this.markLost(problem);
    }
    return result;
  }

  private markLost(problem: string, cause?: unknown): EnvironmentLostError {
    this.lost ??= new EnvironmentLostError(
      `the rep's container ${this.container.id.slice(0, 12)} ${problem}`,
      { cause },
    );
    return this.lost;
  }

  private assertSucceeded(result: RawExecResult, what: string): void {
    if (result.exitCode === 0) return;
    const reason = result.timedOut ? 'timed out' : result.stderr.toString('utf8').trim();
    throw new Error(reason ? `${what}: ${reason}` : what);
  }
}

/**
 * Why `container` can no longer serve the rep (gone, not running, or paused), or null when it
 * runs.
 * `settleMs`: when it still looks running, keep looking this long, because Docker reports a
 * killed container's state a moment after its processes have died.
 */
async function containerProblem(container: Docker.Container, settleMs = 0): Promise<string | null> {
  const look = async (): Promise<string | null> => {
    try {
      const info = await withDockerDeadline((abortSignal) => container.inspect({ abortSignal }), {
        ms: 10_000,
      });
      // A paused (frozen) container still reports Running: nothing in it runs, so whatever a
      // command "answered" there (a timeout, a refused exec) is the environment, not evidence.
      if (info.State.Paused) return 'is paused (frozen): its commands cannot run';
      if (info.State.Running && !info.State.Restarting) return null;
      return `stopped (${info.State.Status}, exit code ${info.State.ExitCode}${info.State.OOMKilled ? ', out of memory' : ''})`;
    } catch (error) {
      if (isNotFound(error)) return 'was removed';
      return `could not be inspected: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  let problem = await look();
  // Docker may show a killed container running for a moment after its processes died.
  for (let waited = 0; !problem && waited < settleMs; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    problem = await look();
  }
  return problem;
}

function entryType(kind: string): DirEntry['type'] {
  if (kind.startsWith('regular')) return 'file';
  if (kind === 'directory') return 'directory';
  if (kind === 'symbolic link') return 'symlink';
  return 'other';
}

/** What our query script prints: a result table (checked, the container's output is data). */
const sqlResultSchema = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  truncated: z.boolean(),
});
/** What `sqlite3 -json` prints: one object per row. */
const sqlRowsSchema = z.array(z.record(z.string(), z.unknown()));

/**
 * The JSON a command in the container printed, checked against `schema`: anything else (a
 * tampered python3 or sqlite3, a truncated answer) is a failed query the judge sees, not a
 * crash of the engine.
 */
function containerJson<Schema extends z.ZodType>(output: Buffer, schema: Schema): z.output<Schema> {
  let value: unknown;
  try {
    value = JSON.parse(output.toString('utf8')) as unknown;
  } catch {
    throw new Error('the query failed: its output was not JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error('the query failed: its output was not a result table');
  return parsed.data;
}
