/** The SQLite member: files plus a SQLite database that `sql_query` reads. */
import { z } from 'zod';
import type { EnvironmentSpec } from '../suite-format';
import { environmentBaseSchema, relativePath } from './environment-base';

/** The substrate's name, read from here by whatever builds a SQLite environment. */
export const sqliteName = 'sqlite';

const sqliteDatabaseSchema = z.object({ path: relativePath, sql: z.string().optional() }).strict();

/** Where the SQLite file is among `files`, and the SQL that makes it when it is not there. */
type SqliteDatabase = z.output<typeof sqliteDatabaseSchema>;

/** An environment whose `sql_query` reads a SQLite file among `files` (or made from `sql`). */
export const sqliteEnvironmentSchema = environmentBaseSchema.extend({
  substrate: z.literal(sqliteName),
  /** A SQLite database among `files`, or created from `sql`, that `sql_query` reads. */
  database: sqliteDatabaseSchema,
});

/** The SQLite database `spec` asks for, or undefined for every other member. */
export function sqliteDatabaseOf(spec: EnvironmentSpec): SqliteDatabase | undefined {
  return 'database' in spec ? spec.database : undefined;
}
