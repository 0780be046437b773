/**
 * The judge's `sql_query` on the PostgreSQL substrate: `psql --csv` inside the rep container
 * (the SQL goes as one argv word, never through a shell), as the read-only role unless the item
 * allows writes, with a statement timeout. NULL prints as a marker no CSV field can be by
 * accident (psql quotes a field holding it), so NULL and the empty string stay apart.
 */
import type { PostgresSpec } from '../../../../shared/suite-format';
import type { RepRun, SqlResult, ToolLimits } from '../../contract';
import { readonlyRole } from './server';

const nullMarker = '\\N';
const outputBytes = 16 * 1024 * 1024;

/** How the judge's query reaches the server. */
export interface PostgresQueryTarget {
  spec: PostgresSpec;
  /**
   * Runs `psql` in the rep's container. The rep's own exec path, so a container that dies
   * under a query is an environment loss (a rerun), never a failed query the judge scores.
   */
  run: RepRun;
}

/** The role `sql_query` connects as: read-only unless the item says read-write. */
export function queryRole(spec: PostgresSpec): string {
  return spec.access === 'read-write' ? spec.owner : readonlyRole;
}

/** Runs one query; rejects with the server's error message when it fails. */
export async function postgresQuery(
  target: PostgresQueryTarget,
  sql: string,
  limits: ToolLimits,
): Promise<SqlResult> {
  const timeoutMs = Math.max(1000, limits.commandTimeoutMs - 1000);
  const argv = [
    'env',
    `PGOPTIONS=-c statement_timeout=${timeoutMs}`,
    'psql',
    '-X',
    '-q',
    '--csv',
    '-v',
    'ON_ERROR_STOP=1',
    '-P',
    `null=${nullMarker}`,
    '-U',
    queryRole(target.spec),
    '-d',
    target.spec.database,
    '-c',
    sql,
  ];
  const result = await target.run(argv, limits, outputBytes);
  if (result.exitCode !== 0) {
    const reason = result.timedOut
      ? 'timed out'
      : result.stderr
          .toString('utf8')
          .replace(/^psql:[^:]*:\d+: /gm, '')
          .trim();
    throw new Error(reason ? `the query failed: ${reason}` : 'the query failed');
  }
  const records = parseCsv(result.stdout.toString('utf8'));
  const [header = [], ...rows] = records;
  return {
    columns: header.map((cell) => cell.value),
    rows: rows
      .slice(0, limits.maxRows)
      .map((row) =>
        row.map((cell) => (cell.quoted || cell.value !== nullMarker ? cell.value : null)),
      ),
    truncated: rows.length > limits.maxRows || result.truncated,
  };
}

/** One CSV field, and whether it was quoted (a quoted `\N` is text, not NULL). */
export interface CsvCell {
  value: string;
  quoted: boolean;
}

/** Parses RFC 4180 CSV (psql's `--csv`): quoted fields may hold commas, quotes and newlines. */
export function parseCsv(text: string): CsvCell[][] {
  const records: CsvCell[][] = [];
  let record: CsvCell[] = [];
  let value = '';
  let quoted = false;
  let inQuotes = false;
  let fieldStarted = false;
  const endField = () => {
    record.push({ value, quoted });
    value = '';
    quoted = false;
    fieldStarted = false;
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (inQuotes) {
      if (char === '"' && text[index + 1] === '"') {
        value += '"';
        index += 1;
      } else if (char === '"') {
        inQuotes = false;
      } else {
        value += char;
      }
      continue;
    }
    if (char === '"' && !fieldStarted) {
      inQuotes = true;
      quoted = true;
      fieldStarted = true;
    } else if (char === ',') {
      endField();
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      endField();
      records.push(record);
      record = [];
    } else {
      value += char;
      fieldStarted = true;
    }
  }
  if (fieldStarted || record.length > 0) {
    endField();
    records.push(record);
  }
  return records;
}
