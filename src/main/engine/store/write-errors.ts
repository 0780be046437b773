/**
 * Failures of the workspace database itself (disk full, I/O error, read-only file), told apart
 * from everything else: they are not the rep's fault, retrying the rep cannot help, and the
 * engine must stay up and say where the problem is.
 */

/** better-sqlite3's error codes that mean the database file cannot be written. */
const storageCodes = ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN'];

/** The SQLite error code of `error`, e.g. `SQLITE_FULL` or `SQLITE_IOERR_WRITE`, if any. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** True when `error` says the database file cannot be written (as opposed to a busy lock). */
export function isStorageFailure(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && storageCodes.some((prefix) => code.startsWith(prefix));
}

/**
 * What to tell the researcher about a storage failure of the database at `path`: what
 * happened, where, and what to do ("disk full at <path>: …").
 */
export function describeStorageFailure(error: unknown, path: string): string {
  const code = sqliteCode(error) ?? 'unknown';
  const said = error instanceof Error ? error.message : String(error);
  const what = code.startsWith('SQLITE_FULL')
    ? 'disk full'
    : code.startsWith('SQLITE_READONLY')
      ? 'database is read-only'
      : code.startsWith('SQLITE_CANTOPEN')
        ? 'cannot open the database'
        : 'disk write failed';
  const fix = code.startsWith('SQLITE_FULL')
    ? 'Free space on that disk'
    : 'Check the disk and the file permissions';
  return (
    `${what} at ${path}: ${said} (${code}). Nothing stored was lost. ${fix}, then resume ` +
    'the study (cuelab run --resume STUDY, or Resume in the window).'
  );
}
