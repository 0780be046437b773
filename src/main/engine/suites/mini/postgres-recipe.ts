/**
 * What the `mini-postgres` items share: the shop database they start from (a plain SQL dump, as
 * `pg_dump` would write it, with generated rows), the agent's `psql` calls, and verifiers that
 * query the live server in the item's container as the agent's role.
 */
import { dedent } from './recipe';

/** 200 customers in five countries and 600 orders over 2024; the dump every item builds on. */
export const shopDump = dedent(`
  CREATE TABLE customers (
      id integer PRIMARY KEY,
      email text NOT NULL,
      country text NOT NULL,
      created_at date NOT NULL
  );
  CREATE TABLE orders (
      id integer PRIMARY KEY,
      customer_id integer NOT NULL,
      total_cents integer NOT NULL,
      status text NOT NULL,
      placed_at date NOT NULL
  );
  INSERT INTO customers
  SELECT i, 'user' || i || '@example.com', (ARRAY['DE', 'FR', 'US', 'GB', 'ES'])[1 + i % 5],
         date '2023-01-01' + (i * 3 % 365)
  FROM generate_series(1, 200) AS i;
  INSERT INTO orders
  SELECT 5000 + i, 1 + (i * 7 % 200), 500 + (i * 137 % 20000),
         (ARRAY['paid', 'paid', 'shipped', 'refunded'])[1 + i % 4], date '2024-01-01' + (i % 366)
  FROM generate_series(1, 600) AS i;
`);

/** The shop dump followed by `extra` SQL (an item's own twist on the data). */
export function shopWith(extra: string): string {
  return `${shopDump}\n${dedent(extra)}\n`;
}

/** The agent's `psql` call: stops at the first error, as a careful agent would run it. */
export function psql(sql: string): string {
  return `psql -X -v ON_ERROR_STOP=1 -c ${singleQuoted(sql)}`;
}

/** A `psql` query printing bare rows (`-At`), for the agent's checks. */
export function psqlRows(sql: string): string {
  return `psql -X -At -c ${singleQuoted(sql)}`;
}

/** One check of a verifier: a query, the exact text it must print, and the problem otherwise. */
export interface PostgresCheck {
  sql: string;
  expect: string;
  problem: string;
}

/**
 * A verifier that runs each check against the live server (as the agent's role) and exits 1
 * naming every check whose query does not print exactly what it should.
 */
export function postgresVerifier(checks: readonly PostgresCheck[], success: string): string {
  const lines = ['problems=0'];
  for (const check of checks) {
    lines.push(
      `got=$(psql -X -At -c ${singleQuoted(check.sql)} 2>&1)`,
      `if [ "$got" != ${singleQuoted(check.expect)} ]; then`,
      `  echo ${singleQuoted(`${check.problem} (got: `)}"$got)"; problems=$((problems + 1))`,
      'fi',
    );
  }
  lines.push(`[ "$problems" -eq 0 ] && echo ${singleQuoted(success)}`, '[ "$problems" -eq 0 ]');
  return lines.join('\n');
}

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
