/**
 * The PostgreSQL substrate's member (AJ-Bench Postgres, §2): a server in the item's container,
 * without network, holding the agent's end state. The state is loaded from a dump, then
 * `setup` and `replay` run against the live server.
 */
import { z } from 'zod';
import type { EnvironmentSpec, PostgresSpec } from '../suite-format';
import { environmentBaseSchema, relativePath } from './environment-base';

/**
 * The substrate's name: its member's `substrate`, its items' dataset label and its bootstrapped
 * image's kind. Elsewhere it is read from here, so the name is written once.
 */
export const postgresName = 'postgres';

const sqlName = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'lower-case letters, digits and "_" (a PostgreSQL name)');

/** The server's database, its owner, the dump to load and what the judge may do. */
export const postgresSpecSchema = z
  .object({
    /** The database the agent worked in; default `app`. */
    database: sqlName.default('app'),
    /** The role the agent worked as (owns the database; `PGUSER` in the container); default `agent`. */
    owner: sqlName
      .refine((name) => !['postgres', 'judge_readonly'].includes(name), {
        message: 'postgres and judge_readonly are reserved',
      })
      .default('agent'),
    /** A plain SQL dump (pg_dump's default format, or any SQL) loaded with psql as `owner`. */
    sql: z.string().optional(),
    /** A file among `files` holding a plain SQL dump, loaded the same way. */
    dumpFile: relativePath.optional(),
    /** A `pg_dump --format=custom` archive, base64-encoded, loaded with pg_restore as `owner`. */
    archive: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')
      .optional(),
    /**
     * What the judge's `sql_query` may do: `read-only` (default; it connects as a role that can
     * only read) or `read-write` (as `owner`, for items whose judging needs writes).
     */
    access: z.enum(['read-only', 'read-write']).default('read-only'),
  })
  .strict();

/** An environment whose `sql_query` queries a PostgreSQL server (Docker backend). */
export const postgresEnvironmentSchema = environmentBaseSchema
  .extend({
    substrate: z.literal(postgresName),
    /** The server that `sql_query` queries. */
    postgres: postgresSpecSchema,
  })
  .refine((spec) => !spec.postgres.dumpFile || spec.files[spec.postgres.dumpFile] !== undefined, {
    message: 'names a file that is not among files',
    path: ['postgres', 'dumpFile'],
  });

/**
 * The server `spec` asks for, or undefined for every other member. It asks `in` rather than
 * reading `substrate`, so a spec built in code before parsing answers the same.
 */
export function postgresOf(spec: EnvironmentSpec): PostgresSpec | undefined {
  return 'postgres' in spec ? spec.postgres : undefined;
}
