/**
 * What the judge's tools act on: the environment the agent left behind. The Docker backend
 * and the no-exec snapshot backend (environments issue) implement this, and a web snapshot
 * adds the web tools to either; tests may use an in-memory one. Every method takes limits so a runaway command cannot flood the transcript.
 */

/** What an environment can do; tools it cannot serve are not offered to the judge. */
export interface EnvironmentCapabilities {
  /** `shell`: run commands (Docker only; never on the host). */
  shell: boolean;
  /** `read_file`, `list_dir`. */
  files: boolean;
  /** `sql_query`: the environment has a database. */
  sql: boolean;
  /** `web_search`, `fetch_url`: the item carries a web (a snapshot, served offline). */
  web?: boolean;
}

/** One `web_search` result. */
export interface WebSearchResult {
  url: string;
  title: string;
  snippet: string;
}

/** A page `fetch_url` returned. */
export interface FetchedPage {
  url: string;
  title: string;
  content: string;
  truncated: boolean;
}

/** The result of one shell command. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  /** null when the command was killed (timeout or abort). */
  exitCode: number | null;
  timedOut: boolean;
  /** True when output was cut at the byte cap. */
  truncated: boolean;
}

/** One directory entry. */
export interface DirEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
}

/** Rows of a SQL query. */
export interface SqlResult {
  columns: string[];
  rows: unknown[][];
  /** True when rows were cut at the row cap. */
  truncated: boolean;
}

/** Limits applied to every environment call. */
export interface ToolLimits {
  /** Per-command wall-clock limit. */
  commandTimeoutMs: number;
  /** Cap on the bytes of output kept from one call. */
  maxOutputBytes: number;
  /** Cap on the rows kept from one query. */
  maxRows: number;
}

/** Defaults for `ToolLimits`. */
export const defaultToolLimits: ToolLimits = {
  commandTimeoutMs: 30_000,
  maxOutputBytes: 16_384,
  maxRows: 200,
};

/** An environment one judge rep investigates. Disposed on every path by its owner. */
export interface JudgeEnvironment {
  readonly capabilities: EnvironmentCapabilities;
  /** A short description for the judge (e.g. working directory, database kind). */
  readonly description: string;
  exec(command: string, limits: ToolLimits, signal?: AbortSignal): Promise<ExecResult>;
  readFile(path: string, limits: ToolLimits): Promise<{ content: string; truncated: boolean }>;
  listDir(path: string): Promise<DirEntry[]>;
  sqlQuery(sql: string, limits: ToolLimits): Promise<SqlResult>;
  /**
   * Throws EnvironmentLostError when the environment died during the rep (a killed or removed
   * container); checked before a rep is stored, so no verdict is scored from a broken one.
   */
  verifyIntact?(): Promise<void>;
  /** Searches the item's web; present when `capabilities.web`. */
  webSearch?(query: string, limits: ToolLimits, signal?: AbortSignal): Promise<WebSearchResult[]>;
  /** Fetches one page of the item's web; present when `capabilities.web`. */
  fetchUrl?(url: string, limits: ToolLimits, signal?: AbortSignal): Promise<FetchedPage>;
}
