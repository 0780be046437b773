/**
 * The SQL substrate: one `sql_query` tool for both databases an item can hold, a SQLite file
 * (snapshot or container) and a PostgreSQL server in the container; the environment routes it.
 */
import { z } from 'zod';
import { defineTool } from '../../contract';
import type { Substrate } from '../substrate';

const sqlQueryTool = defineTool({
  name: 'sql_query',
  description:
    "Run a SQL query against the environment's database (read-only unless the environment " +
    'description says otherwise).',
  input: z.object({ sql: z.string().min(1) }).strict(),
  run: async ({ sql }, { environment, limits }) => {
    const result = await environment.sqlQuery(sql, limits);
    const rows = result.rows.map((row) => row.map(formatCell).join(' | '));
    const text = [result.columns.join(' | '), ...rows].join('\n');
    const note = result.truncated ? `\n[rows truncated at ${limits.maxRows}]` : '';
    return { content: `${text}\n(${result.rows.length} rows)${note}`, isError: false };
  },
});

function formatCell(value: unknown): string {
  if (value === null) return 'NULL';
  if (Buffer.isBuffer(value)) return `<blob ${value.length} bytes>`;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value) ?? '';
}

/** `sql_query`, offered when the environment has a database. */
export const sqlSubstrate: Substrate = {
  name: 'sql',
  tools: [sqlQueryTool],
  servedBy: (environment) => environment.capabilities.sql,
};
