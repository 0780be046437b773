/**
 * The SQL sandbox for item databases. An item's `environment.database.sql`
 * is written by whoever wrote the suite, and it is executed by better-sqlite3 in this process,
 * on the host: both backends build the database file here (the Docker backend then copies the
 * file into the container, so images need no sqlite). Plain SQLite can reach other files from
 * SQL in exactly these ways, so each is closed:
 *
 * - `ATTACH` (creates or opens any path, URI filenames included: this build has USE_URI) and
 *   `DETACH`: refused at the token level, anywhere in the script.
 * - `VACUUM INTO 'path'` writes a copy anywhere: `VACUUM` is refused.
 * - `load_extension()` loads native code: refused by name, and SQLite itself refuses it too
 *   (better-sqlite3 enables only the C API, never the SQL function).
 * - `PRAGMA`s that name files or weaken checks: only an allow-list of harmless pragmas passes.
 * - The defensive flag (SQLITE_DBCONFIG_DEFENSIVE) stays on: better-sqlite3 sets it and only
 *   `unsafeMode()` clears it; we never call that (no writable_schema, no shadow-table writes).
 *
 * Why a token scan and not a container: building in Docker would make every database item need
 * Docker, and the snapshot backend exists for machines without it. better-sqlite3 exposes no
 * authorizer and no `sqlite3_limit` (SQLITE_LIMIT_ATTACHED cannot be set to 0 from here), so
 * the scan is the gate. It is sound because it over-approximates SQLite's own tokenizer: a
 * keyword is a run of ASCII letters bounded by non-identifier characters, and the scan splits
 * words on a superset of those boundaries, skipping only string literals and comments, which
 * SQLite never reads as keywords or names (quoted identifiers are checked like bare words). Parameters (`?`, `:x`, `@x`, `$x`) and
 * NUL bytes are refused, so nothing the scan treats as opaque can be reinterpreted.
 *
 * A script that passes can still never end, or write without bound (a recursive CTE of
 * zeroblob()s). So it runs in a child process (sql-sandbox.ts) that is killed at a time limit,
 * against a database (main and temp) capped by `max_page_count`; either breach refuses the
 * item with the limit named and the setting that raises it.
 */
import Database from 'better-sqlite3';
import type { SqlResult, ToolLimits } from '../contract';
import { EngineError } from '../errors';
import { handleSqlRequest, type SqlReply } from './sql-child';
import { runSqlRequest, SqlStoppedError } from './sql-sandbox';

/** Words never allowed as SQL tokens in item or judge SQL. */
const FORBIDDEN_WORDS = new Set(['attach', 'detach', 'vacuum', 'load_extension']);

/**
 * Pragmas an item script may set: none names a file or weakens SQLite's own checks. Not
 * `page_size`: the size cap counts pages, and a bigger page would multiply it.
 */
const ALLOWED_PRAGMAS = new Set([
  'foreign_keys',
  'user_version',
  'application_id',
  'encoding',
  'recursive_triggers',
  'auto_vacuum',
  'journal_mode',
  'synchronous',
  'table_info',
  'index_list',
  'foreign_key_check',
  'integrity_check',
  'table_list',
  'table_xinfo',
  'index_info',
  'index_xinfo',
  'foreign_key_list',
  'collation_list',
  'quick_check',
]);

/** One lexical word of the script, with its line (1-based) for error messages. */
interface Word {
  text: string;
  line: number;
}

/**
 * The words of `sql` (keywords and identifiers, quoted ones unquoted), skipping strings and
 * comments. Throws on NUL bytes, parameters and unterminated literals.
 */
export function sqlWords(sql: string, field: string): Word[] {
  const words: Word[] = [];
  let line = 1;
  let index = 0;
  const fail = (problem: string): never => {
    throw new EngineError('bad_request', `${field}: line ${line}: ${problem}`);
  };
  const skipUntil = (end: string, from: number, what: string): number => {
    const stop = sql.indexOf(end, from);
    if (stop < 0) fail(`unterminated ${what}`);
    for (let at = from; at < stop; at += 1) if (sql[at] === '\n') line += 1;
    return stop + end.length;
  };
  while (index < sql.length) {
    const char = sql[index] as string;
    if (char === '\0') fail('NUL bytes are not allowed in SQL');
    if (char === '\n') {
      line += 1;
      index += 1;
    } else if (char === '-' && sql[index + 1] === '-') {
      const stop = sql.indexOf('\n', index);
      index = stop < 0 ? sql.length : stop;
    } else if (char === '/' && sql[index + 1] === '*') {
      const stop = sql.indexOf('*/', index + 2);
      index = stop < 0 ? sql.length : skipUntil('*/', index + 2, 'comment');
    } else if (char === "'") {
      // A doubled quote is an escaped quote: scanning to the next quote and going on from
      // there reads 'a''b' as two adjacent literals, which skips the same characters.
      index = skipUntil(char, index + 1, 'quoted text');
    } else if (char === '"' || char === '`' || char === '[') {
      // Quoted identifiers are kept as words: a quoted function name still calls it.
      const start = line;
      const stop = skipUntil(char === '[' ? ']' : char, index + 1, 'quoted identifier');
      words.push({ text: sql.slice(index + 1, stop - 1), line: start });
      index = stop;
    } else if ('?:@$#'.includes(char)) {
      fail(`parameters ("${char}") are not allowed in item SQL`);
    } else if (/[A-Za-z_\u0080-\uffff]/.test(char)) {
      let stop = index + 1;
      while (stop < sql.length && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[stop] as string)) stop += 1;
      words.push({ text: sql.slice(index, stop), line });
      index = stop;
    } else {
      index += 1;
    }
  }
  return words;
}

/** Throws a clear error when `sql` could reach a file other than its own database. */
export function checkSandboxedSql(sql: string, field: string): void {
  const words = sqlWords(sql, field);
  words.forEach((word, position) => {
    const lower = word.text.toLowerCase();
    if (FORBIDDEN_WORDS.has(lower)) {
      throw new EngineError(
        'bad_request',
        `${field}: line ${word.line}: ${word.text.toUpperCase()} is not allowed ` +
          '(item SQL is built in a sandbox that cannot open or write other files)',
      );
    }
    if (lower !== 'pragma') return;
    const name = words[position + 1]?.text.toLowerCase();
    // `PRAGMA main.x` puts the schema first; the pragma name is the word after it.
    const pragma = name === 'main' ? words[position + 2]?.text.toLowerCase() : name;
    if (!pragma || !ALLOWED_PRAGMAS.has(pragma)) {
      throw new EngineError(
        'bad_request',
        `${field}: line ${word.line}: PRAGMA ${pragma ?? ''} is not allowed in item SQL ` +
          `(allowed: ${[...ALLOWED_PRAGMAS].join(', ')})`,
      );
    }
  });
}

/** How errors name an item's SQL: with the item, when the caller knows it. */
export function databaseLabel(itemId: string | undefined): string {
  return itemId ? `item ${itemId}: environment.database.sql` : 'environment.database.sql';
}

/** How long item SQL may run and how large its database may grow (the user's setting). */
export interface ItemSqlLimits {
  timeoutMs: number;
  maxDatabaseBytes: number;
}

/**
 * The limits when the user has set nothing: half a minute builds any honest item database
 * many times over, and 64 MiB is far past the item databases suites ship (the snapshot backend
 * keeps up to 32 built databases in memory, so the cap also bounds that).
 */
export const defaultItemSqlLimits: ItemSqlLimits = {
  timeoutMs: 30_000,
  maxDatabaseBytes: 64 * 1024 * 1024,
};

/** The limits the user's environment sets (`CUELAB_SQL_TIMEOUT_SECONDS`, `…_MAX_DATABASE_MB`). */
export function itemSqlLimitsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ItemSqlLimits {
  const number = (name: string) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const seconds = number('CUELAB_SQL_TIMEOUT_SECONDS');
  const megabytes = number('CUELAB_SQL_MAX_DATABASE_MB');
  return {
    timeoutMs: seconds ? seconds * 1000 : defaultItemSqlLimits.timeoutMs,
    maxDatabaseBytes: megabytes
      ? Math.floor(megabytes * 1024 * 1024)
      : defaultItemSqlLimits.maxDatabaseBytes,
  };
}

/**
 * Runs an item's SQL script against the database file at `path` (created when absent), inside
 * the sandbox described above, in a child process (sql-sandbox.ts) with the time and size
 * limits. `label` names the item and field in errors. Throws before anything runs when the
 * script is refused, and a clear bad_request when a limit stops it.
 */
export async function buildItemDatabase(
  path: string,
  sql: string,
  label: string,
  options: { limits?: ItemSqlLimits; signal?: AbortSignal } = {},
): Promise<void> {
  checkSandboxedSql(sql, label);
  const limits = options.limits ?? itemSqlLimitsFromEnv();
  const request = { kind: 'build', path, sql, maxDatabaseBytes: limits.maxDatabaseBytes } as const;
  let reply: SqlReply;
  try {
    reply = await runSqlRequest(request, limits.timeoutMs, options.signal);
  } catch (error) {
    if (error instanceof SqlStoppedError && error.reason === 'time') {
      throw new EngineError(
        'bad_request',
        `${label} did not finish within ${limits.timeoutMs / 1000} s (the item SQL time ` +
          'limit), so the item is refused. Fix: make the script end sooner (a recursive CTE ' +
          'needs a WHERE that stops it), or raise the limit in your own environment: ' +
          'CUELAB_SQL_TIMEOUT_SECONDS.',
      );
    }
    // A child that died mid-script (out of memory, say) refuses the item the same way.
    if (error instanceof SqlStoppedError && error.reason === 'crashed')
      throw new EngineError('bad_request', `${label}: ${error.message}`);
    throw error;
  }
  buildOutcome(reply, label, limits);
}

/**
 * The same build in this process, for callers that must stay synchronous (tests, tools): the
 * same size cap, but no time limit, so the runner never uses it.
 */
export function buildItemDatabaseHere(
  path: string,
  sql: string,
  label: string,
  limits: ItemSqlLimits = itemSqlLimitsFromEnv(),
): void {
  checkSandboxedSql(sql, label);
  const request = { kind: 'build', path, sql, maxDatabaseBytes: limits.maxDatabaseBytes } as const;
  buildOutcome(handleSqlRequest(Database, request), label, limits);
}

function buildOutcome(reply: SqlReply, label: string, limits: ItemSqlLimits): void {
  if (reply.ok) return;
  if (reply.full) {
    throw new EngineError(
      'bad_request',
      `${label} grew its database past ${limits.maxDatabaseBytes / 1024 / 1024} MiB (the ` +
        `item SQL size limit; ${reply.message}), so the item is refused. Fix: make the ` +
        'script write less, or raise the limit in your own environment: ' +
        'CUELAB_SQL_MAX_DATABASE_MB.',
    );
  }
  throw new EngineError('bad_request', `${label}: ${reply.message}`);
}

/** Temporary storage one judge query may use (sorts, materialized CTEs). */
const judgeTempBytes = 64 * 1024 * 1024;

/**
 * One read-only query in the SQL child process: killed at the per-call time limit, rows and
 * bytes capped, temp storage capped. A breach is an error the judge sees as its tool's
 * failure; the rep goes on.
 */
export async function queryItemDatabase(
  file: string,
  sql: string,
  limits: ToolLimits,
): Promise<SqlResult> {
  const request = {
    kind: 'query',
    path: file,
    sql,
    maxRows: limits.maxRows,
    maxResultBytes: limits.maxOutputBytes,
    maxDatabaseBytes: judgeTempBytes,
  } as const;
  let reply;
  try {
    reply = await runSqlRequest(request, limits.commandTimeoutMs, undefined);
  } catch (error) {
    if (error instanceof SqlStoppedError && error.reason === 'time') {
      throw new Error(
        `the query did not finish within ${limits.commandTimeoutMs / 1000} s (the per-call ` +
          'time limit) and was stopped; ask for less (a WHERE, a LIMIT, no unbounded ' +
          'recursive CTE)',
      );
    }
    throw error;
  }
  if (!reply.ok) {
    throw new Error(
      reply.full
        ? `the query needed more than ${judgeTempBytes / 1024 / 1024} MiB of temporary ` +
            `storage (${reply.message}); ask for less`
        : reply.message,
    );
  }
  if (reply.kind !== 'query') throw new Error('the SQL process answered the wrong request');
  return { columns: reply.columns, rows: reply.rows, truncated: reply.truncated };
}
