/**
 * Where a workspace lives. Precedence: `--workspace`, then `CUELAB_WORKSPACE`, then the
 * platform's application-data folder.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { EngineError } from './errors';

/** How the workspace was chosen. */
export type WorkspaceSource = 'flag' | 'environment' | 'default';

/** A resolved workspace folder. */
export interface WorkspaceLocation {
  /** Absolute folder path. */
  path: string;
  /** Which setting chose it. */
  source: WorkspaceSource;
}

/** The facts `resolveWorkspace` needs, injectable for tests. */
export interface WorkspaceContext {
  flag?: string | undefined;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
}

/** The platform's application-data folder for CueLab. */
export function defaultWorkspacePath(context: Omit<WorkspaceContext, 'flag'>): string {
  const { env, platform, home } = context;
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'CueLab');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'CueLab');
  return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'cuelab');
}

/** Chooses the workspace folder from flag, environment or platform default. */
export function resolveWorkspace(context: WorkspaceContext): WorkspaceLocation {
  if (context.flag) return { path: resolve(context.flag), source: 'flag' };
  const fromEnv = context.env.CUELAB_WORKSPACE;
  if (fromEnv) return { path: resolve(fromEnv), source: 'environment' };
  return { path: defaultWorkspacePath(context), source: 'default' };
}

/** Resolves the workspace for this process. */
export function workspaceForProcess(flag?: string): WorkspaceLocation {
  return resolveWorkspace({ flag, env: process.env, platform: process.platform, home: homedir() });
}

/**
 * Creates the workspace folder if needed (0700: it holds transcripts and prompts), and makes
 * its database files 0600 before SQLite opens them, so the WAL and shared-memory files SQLite
 * creates next to them inherit that mode. A folder the user already had keeps its mode.
 */
export function ensureWorkspace(location: WorkspaceLocation): void {
  try {
    const created = mkdirSync(location.path, { recursive: true, mode: 0o700 });
    if (created !== undefined) chmodSync(location.path, 0o700);
    const database = databasePath(location.path);
    if (!existsSync(database)) writeFileSync(database, '', { mode: 0o600 });
    for (const file of [database, `${database}-wal`, `${database}-shm`, `${database}-journal`]) {
      if (existsSync(file)) chmodSync(file, 0o600);
    }
  } catch (error) {
    throw new EngineError(
      'internal',
      `Cannot create the workspace folder ${location.path} (${(error as Error).message}). ` +
        'Choose another with --workspace DIR or CUELAB_WORKSPACE.',
    );
  }
}

/** The database file inside a workspace. */
export function databasePath(workspace: string): string {
  return join(workspace, 'cuelab.sqlite');
}

/**
 * Writes a derived cache file beside the workspace (persisted tables, flip lists, workbench
 * facets) through a partial file of its own and a rename, so no reader ever sees half a file.
 * The partial file's name holds the process, the thread and a random part: the engine's worker
 * threads share its pid and may write the same file at once. A read-only or full workspace is
 * not an error: the cache is only missing.
 */
export function writeCacheFile(file: string, text: string): void {
  const partial = `${file}.${String(process.pid)}-${String(threadId)}-${randomBytes(4).toString('hex')}.partial`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(partial, text);
    renameSync(partial, file);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // Left for the next start's writer to replace; a cache file is never an error.
    }
  }
}
