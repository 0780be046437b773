/**
 * The SQL sandbox for item databases (issue 10, item 1). An item's `environment.database.sql`
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
 */
import Database from 'better-sqlite3';
import { EngineError } from '../errors';

/** Words never allowed as SQL tokens in item or judge SQL. */
const FORBIDDEN_WORDS = new Set(['attach', 'detach', 'vacuum', 'load_extension']);

/** Pragmas an item script may set: none names a file or weakens SQLite's own checks. */
const ALLOWED_PRAGMAS = new Set([
  'foreign_keys',
  'user_version',
  'application_id',
  'encoding',
  'recursive_triggers',
  'auto_vacuum',
  'page_size',
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

/**
 * Runs an item's SQL script against the database file at `path` (created when absent), inside
 * the sandbox described above. Throws before anything runs when the script is refused.
 */
export function buildItemDatabase(path: string, sql: string, field: string): void {
  checkSandboxedSql(sql, field);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = DELETE');
    db.exec(sql);
    // Belt and braces: the scan refuses ATTACH, so only main (and temp) can be open here.
    const attached = (db.pragma('database_list') as { name: string }[]).filter(
      (entry) => entry.name !== 'main' && entry.name !== 'temp',
    );
    if (attached.length) throw new EngineError('bad_request', `${field}: attached a database`);
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError('bad_request', `${field}: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}
