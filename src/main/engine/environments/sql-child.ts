/**
 * What the SQL child process does with one request: build an item's database from its script,
 * or answer one read-only judge query. `handleSqlRequest` runs in a separate Node process
 * (sql-sandbox.ts), so a script that never ends can be killed without touching the engine.
 *
 * The function is sent to the child as source text (`Function.prototype.toString`), so it
 * must be self-contained: it may use only its parameters and JavaScript's globals, never an
 * import or anything else from this module. A test runs it in the child, where any outside
 * reference would be a ReferenceError.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** One piece of work for the SQL child. Paths are absolute; the script passed the scan already. */
export type SqlRequest =
  | {
      kind: 'build';
      /** The database file to create (or extend, when it exists). */
      path: string;
      sql: string;
      /** The database (main and temp each) may not grow past this. */
      maxDatabaseBytes: number;
    }
  | {
      kind: 'query';
      /** The database file, opened read-only. */
      path: string;
      sql: string;
      maxRows: number;
      /** Strings and blobs of the rows kept, summed; the rest is cut. */
      maxResultBytes: number;
      /** The temp database (sorts, temp tables) may not grow past this. */
      maxDatabaseBytes: number;
    };

/** The answer to one request. `full` marks a refusal by the database size cap. */
export type SqlReply =
  | { ok: true; kind: 'build'; bytes: number }
  | { ok: true; kind: 'query'; columns: string[]; rows: unknown[][]; truncated: boolean }
  | { ok: false; message: string; full: boolean };

/** Runs `request` with better-sqlite3's `Database`; never throws (errors become replies). */
export function handleSqlRequest(Database: typeof BetterSqlite3, request: SqlRequest): SqlReply {
  const failure = (error: unknown): SqlReply => {
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      full: code === 'SQLITE_FULL',
    };
  };
  let db: BetterSqlite3.Database;
  try {
    db =
      request.kind === 'query'
        ? new Database(request.path, { readonly: true, fileMustExist: true })
        : new Database(request.path);
  } catch (error) {
    return failure(error);
  }
  try {
    // max_page_count counts pages, so the cap is set in this file's own page size; the scan
    // refuses PRAGMA page_size, so a script cannot make each page larger afterwards.
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const pages = Math.max(1, Math.floor(request.maxDatabaseBytes / pageSize));
    db.pragma(`temp.max_page_count = ${pages}`);
    if (request.kind === 'build') {
      db.pragma('journal_mode = DELETE');
      db.pragma(`max_page_count = ${pages}`);
      db.exec(request.sql);
      // Belt and braces: the scan refuses ATTACH, so only main (and temp) can be open here.
      const attached = (db.pragma('database_list') as { name: string }[]).filter(
        (entry) => entry.name !== 'main' && entry.name !== 'temp',
      );
      if (attached.length) return { ok: false, message: 'attached a database', full: false };
      // A file given with the item may already be past the cap (SQLite never lowers the
      // count below what a file holds): it is refused the same way.
      const bytes = Number(db.pragma('page_count', { simple: true })) * pageSize;
      if (bytes > request.maxDatabaseBytes)
        return { ok: false, message: `the database is ${bytes} bytes`, full: true };
      return { ok: true, kind: 'build', bytes };
    }
    const statement = db.prepare(request.sql);
    if (!statement.reader)
      throw new Error('only queries that return rows are allowed (the database is read-only)');
    const rows: unknown[][] = [];
    let truncated = false;
    let budget = request.maxResultBytes;
    const size = (cell: unknown): number =>
      typeof cell === 'string' || Buffer.isBuffer(cell) ? cell.length : 8;
    for (const row of statement.raw(true).iterate() as IterableIterator<unknown[]>) {
      const bytes = row.reduce((sum: number, cell) => sum + size(cell), 0);
      if (rows.length >= request.maxRows || (bytes > budget && rows.length > 0)) {
        truncated = true;
        break;
      }
      if (bytes > budget) {
        // A first row past the budget is kept with its big cells cut, so the judge sees
        // what the row holds; a cut blob is named with its true size, never shown short.
        const share = Math.floor(budget / row.length);
        rows.push(
          row.map((cell) =>
            Buffer.isBuffer(cell) && cell.length > share
              ? `<blob ${cell.length} bytes, too large to return>`
              : typeof cell === 'string' && cell.length > share
                ? `${cell.slice(0, share)}… [cut: ${cell.length} characters]`
                : cell,
          ),
        );
        truncated = true;
        break;
      }
      budget -= bytes;
      rows.push(row);
    }
    return {
      ok: true,
      kind: 'query',
      columns: statement.columns().map((c) => c.name),
      rows,
      truncated,
    };
  } catch (error) {
    return failure(error);
  } finally {
    db.close();
  }
}
