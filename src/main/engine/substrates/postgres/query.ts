/**
 * The judge's `sql_query` on the PostgreSQL substrate: the protocol client (client-script.ts)
 * inside the rep container, so the text reaches the server as one SQL statement and nothing
 * else (no psql, no meta-command, no shell). It connects as the read-only role unless the item
 * allows writes. The time limit is the client's own deadline, enforced from outside the
 * session (a cancel request, then `pg_terminate_backend`), so `SET statement_timeout = 0` or
 * a PL/pgSQL block that catches the cancel does not outlast it; if the client itself is killed
 * first, the backend it reported is ended here as the superuser.
 */
import { z } from 'zod';
import type { PostgresSpec } from '../../../../shared/suite-format';
import type { RepRun, SqlResult, ToolLimits } from '../../contract';
import { pgClientScript } from './client-script';
import { postgresSocket, readonlyRole } from './server';

const outputBytes = 16 * 1024 * 1024;
/** Bytes of cell text kept from one query; more rows are dropped and the result marked truncated. */
const keptCellBytes = 8 * 1024 * 1024;

/** How the judge's query reaches the server. */
export interface PostgresQueryTarget {
  spec: PostgresSpec;
  /**
   * Runs the client in the rep's container. The rep's own exec path, so a container that dies
   * under a query is an environment loss (a rerun), never a failed query the judge scores.
   */
  run: RepRun;
}

/** The role `sql_query` connects as: read-only unless the item says read-write. */
export function queryRole(spec: PostgresSpec): string {
  return spec.access === 'read-write' ? spec.owner : readonlyRole;
}

/**
 * The client's deadline within the tool's time limit: room is left for the cancel, the
 * terminate and the answer before the exec itself is killed.
 */
function clientDeadlineMs(commandTimeoutMs: number): number {
  return Math.max(200, commandTimeoutMs - Math.min(4000, Math.floor(commandTimeoutMs / 3)));
}

const answerSchema = z.union([
  z.object({
    columns: z.array(z.string()),
    rows: z.array(z.array(z.string().nullable())),
    truncated: z.boolean(),
  }),
  z.object({ error: z.string(), timedOut: z.boolean().optional() }),
]);

/** Runs one statement; rejects with the server's error message when it fails. */
export async function postgresQuery(
  target: PostgresQueryTarget,
  sql: string,
  limits: ToolLimits,
): Promise<SqlResult> {
  const role = queryRole(target.spec);
  const argv = [
    'python3',
    '-c',
    pgClientScript,
    'query',
    postgresSocket,
    role,
    target.spec.database,
    String(clientDeadlineMs(limits.commandTimeoutMs)),
    String(limits.maxRows),
    String(keptCellBytes),
    sql,
  ];
  const result = await target.run(argv, limits, outputBytes);
  if (result.exitCode !== 0 || result.timedOut) {
    // The client did not get to end its backend: end it from outside, as the superuser.
    const pid = /cuelab-backend-pid:(\d+)/.exec(result.stderr.toString('utf8'))?.[1];
    await endBackend(target.run, role, pid === undefined ? 0 : Number(pid));
    throw new Error(result.timedOut ? 'the query failed: timed out' : clientFailure(result.stderr));
  }
  let answer: z.output<typeof answerSchema>;
  try {
    answer = answerSchema.parse(JSON.parse(result.stdout.toString('utf8')));
  } catch {
    throw new Error('the query failed: its output was not a result table');
  }
  if ('error' in answer) throw new Error(`the query failed: ${answer.error}`);
  return answer;
}

function clientFailure(stderr: Buffer): string {
  const text = stderr
    .toString('utf8')
    .replace(/cuelab-backend-pid:\d+\n?/g, '')
    .trim()
    .slice(-2000);
  return text ? `the query failed: ${text}` : 'the query failed';
}

/** Ends `role`'s backend `pid` (all of its backends when 0) as the superuser. */
async function endBackend(run: RepRun, role: string, pid: number): Promise<void> {
  const limits = { commandTimeoutMs: 15_000, maxOutputBytes: 64 * 1024, maxRows: 0 };
  await run(
    ['python3', '-c', pgClientScript, 'kill', postgresSocket, String(pid), role],
    limits,
    limits.maxOutputBytes,
    'postgres',
  ).catch(() => undefined);
}
