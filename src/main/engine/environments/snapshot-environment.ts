/**
 * The judge's tools in a snapshot folder (snapshot.ts writes it): `read_file`, `list_dir` and
 * read-only `sql_query`, each confined to the folder, read off the event loop. No command runs.
 */
import {
  lstat as lstatCallback,
  readdir as readdirCallback,
  readFile as readFileCallback,
  realpath as realpathCallback,
} from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import type { EnvironmentSpec } from '../../../shared/suite-format';
import { sqliteDatabaseOf } from '../../../shared/substrates/sqlite';
import type {
  DirEntry,
  EnvironmentCapabilities,
  ExecResult,
  JudgeEnvironment,
  SqlResult,
  ToolLimits,
} from '../contract';
import { checkSandboxedSql, queryItemDatabase } from './item-sql';

// The callback forms, promisified (as snapshot.ts does, and why): no FileHandle per read.
const lstat = promisify(lstatCallback);
const readdir = promisify(readdirCallback);
const readFile = promisify(readFileCallback);
const realpath = promisify(realpathCallback.native);

/** The tools a snapshot of `spec` offers: files always, SQL when it has a database. */
export function snapshotCapabilities(spec: EnvironmentSpec): EnvironmentCapabilities {
  return { shell: false, files: true, sql: sqliteDatabaseOf(spec) !== undefined };
}

/** What the judge is told about a snapshot environment. */
export function snapshotDescription(spec: EnvironmentSpec): string {
  const database = sqliteDatabaseOf(spec);
  return (
    'A snapshot of the final state of the agent\'s working directory, mounted at "/". ' +
    'Paths are relative to it. There is no shell here.' +
    (database ? ` sql_query reads the SQLite database ${database.path}.` : '')
  );
}

/** A snapshot folder as the judge's environment. */
export class SnapshotEnvironment implements JudgeEnvironment {
  readonly capabilities: EnvironmentCapabilities;
  readonly description: string;
  private readonly databasePath: string | undefined;

  constructor(
    private readonly root: string,
    spec: EnvironmentSpec,
    /**
     * Listings already read from this folder, shared by the reps using it: the folder cannot
     * change while they do, so a path lists the same every time (a listing is three
     * thread-pool hand-offs, and the reps of an item ask for the same ones).
     */
    private readonly listings = new Map<string, Promise<readonly DirEntry[]>>(),
  ) {
    this.capabilities = snapshotCapabilities(spec);
    this.description = snapshotDescription(spec);
    this.databasePath = sqliteDatabaseOf(spec)?.path;
  }

  exec(): Promise<ExecResult> {
    return Promise.reject(new Error('this snapshot environment cannot run commands'));
  }

  // The tools read asynchronously: a judge's read never holds the event loop other reps share.
  async readFile(
    path: string,
    limits: ToolLimits,
  ): Promise<{ content: string; truncated: boolean }> {
    const target = await this.resolveInside(path);
    const buffer = await readFile(target);
    const truncated = buffer.length > limits.maxOutputBytes;
    return { content: buffer.subarray(0, limits.maxOutputBytes).toString('utf8'), truncated };
  }

  async listDir(path: string): Promise<DirEntry[]> {
    let listing = this.listings.get(path);
    if (!listing) {
      listing = this.readListing(path);
      this.listings.set(path, listing);
      // A failed listing (no such folder) is not kept: it is read again when asked again.
      listing.catch(() => this.listings.delete(path));
    }
    return (await listing).map((entry) => ({ ...entry }));
  }

  private async readListing(path: string): Promise<DirEntry[]> {
    const target = await this.resolveInside(path);
    const listed = await readdir(target, { withFileTypes: true });
    const entries = await Promise.all(
      listed.map(async (entry): Promise<DirEntry> => {
        const stats = await lstat(join(target, entry.name));
        const type = entry.isDirectory()
          ? 'directory'
          : entry.isFile()
            ? 'file'
            : entry.isSymbolicLink()
              ? 'symlink'
              : 'other';
        return { name: entry.name, type, size: stats.size };
      }),
    );
    return entries.sort((a, b) => a.name.localeCompare(b.name));
  }

  async sqlQuery(sql: string, limits: ToolLimits): Promise<SqlResult> {
    if (!this.databasePath) throw new Error('this environment has no database');
    // The judge's SQL passes the same gate as the item's: no ATTACH of another file.
    checkSandboxedSql(sql, 'sql_query');
    return queryItemDatabase(await this.resolveInside(this.databasePath), sql, limits);
  }

  /** Maps a judge path ("/a/b", "a/b", ".") into the root; refuses anything that escapes it. */
  private async resolveInside(path: string): Promise<string> {
    const target = resolve(this.root, `.${sep}${path}`);
    let real: string;
    try {
      real = await realpath(target);
    } catch {
      throw new Error(`no such file or directory: ${path}`);
    }
    const inside = relative(this.root, real);
    if (inside.startsWith('..') || resolve(this.root, inside) !== real) {
      throw new Error(`${path} is outside the environment`);
    }
    return real;
  }
}
