import Database from 'better-sqlite3';
import type {
  DirEntry,
  EnvironmentCapabilities,
  ExecResult,
  JudgeEnvironment,
  SqlResult,
  ToolLimits,
} from '../../src/main/engine/contract/environment';

/**
 * An in-memory environment for judge tests: files in a map, an optional in-memory SQLite
 * database, and shell commands answered by a table. It records every call it receives.
 */
export class MemoryEnvironment implements JudgeEnvironment {
  readonly capabilities: EnvironmentCapabilities;
  readonly description = 'An in-memory test environment; working directory /work.';
  readonly calls: { tool: string; argument: string }[] = [];
  private readonly db: Database.Database | undefined;

  constructor(
    private readonly files: Record<string, string> = {},
    private readonly commands: Record<string, ExecResult | string> = {},
    sqlSetup?: string,
  ) {
    if (sqlSetup) {
      this.db = new Database(':memory:');
      this.db.exec(sqlSetup);
    }
    this.capabilities = { shell: true, files: true, sql: this.db !== undefined };
  }

  exec(command: string, limits: ToolLimits): Promise<ExecResult> {
    this.calls.push({ tool: 'shell', argument: command });
    const answer = this.commands[command];
    if (answer === undefined) {
      return Promise.resolve({
        stdout: '',
        stderr: `sh: ${command.split(' ')[0]}: command not found`,
        exitCode: 127,
        timedOut: false,
        truncated: false,
      });
    }
    if (typeof answer !== 'string') return Promise.resolve(answer);
    const truncated = answer.length > limits.maxOutputBytes;
    return Promise.resolve({
      stdout: answer.slice(0, limits.maxOutputBytes),
      stderr: '',
      exitCode: 0,
      timedOut: false,
      truncated,
    });
  }

  readFile(path: string, limits: ToolLimits): Promise<{ content: string; truncated: boolean }> {
    this.calls.push({ tool: 'read_file', argument: path });
    const content = this.files[path];
    if (content === undefined) return Promise.reject(new Error(`no such file: ${path}`));
    return Promise.resolve({
      content: content.slice(0, limits.maxOutputBytes),
      truncated: content.length > limits.maxOutputBytes,
    });
  }

  listDir(path: string): Promise<DirEntry[]> {
    this.calls.push({ tool: 'list_dir', argument: path });
    const prefix = path.endsWith('/') ? path : `${path}/`;
    const names = new Set<string>();
    for (const file of Object.keys(this.files)) {
      if (file.startsWith(prefix)) names.add(file.slice(prefix.length).split('/')[0] ?? '');
    }
    return Promise.resolve(
      [...names].sort().map((name) => {
        const content = this.files[prefix + name];
        return content === undefined
          ? { name, type: 'directory' as const, size: 0 }
          : { name, type: 'file' as const, size: content.length };
      }),
    );
  }

  sqlQuery(sql: string, limits: ToolLimits): Promise<SqlResult> {
    this.calls.push({ tool: 'sql_query', argument: sql });
    if (!this.db) return Promise.reject(new Error('this environment has no database'));
    const statement = this.db.prepare(sql);
    const rows = statement.raw(true).all() as unknown[][];
    return Promise.resolve({
      columns: statement.columns().map((column) => column.name),
      rows: rows.slice(0, limits.maxRows),
      truncated: rows.length > limits.maxRows,
    });
  }
}
