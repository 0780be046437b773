import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { ensurePostgresImage } from '../../src/main/engine/environments/docker/bootstrap';
import { execInContainer } from '../../src/main/engine/environments/docker/exec';
import { prepareItem, type PreparedItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep, type DockerRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';

// What a judge steered by a prompt injection in a stranger's trajectory, or a stranger's item
// dump, tries against the PostgreSQL substrate: the judge's sql_query is SQL only, its role
// cannot lift its limits or become the superuser, a timeout ends the query on the server, and
// a dump runs no shell while the image is made.
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const docker = new Docker();
let available = false;
const created = new Set<string>();
let prepared: PreparedItem;

const dump = `CREATE TABLE orders (id integer PRIMARY KEY);
INSERT INTO orders VALUES (1), (2), (3);
-- ${run}
`;

function needDocker(context: TestContext): void {
  if (!available) context.skip('Docker is not running here (CUELAB_REQUIRE_DOCKER=1 fails)');
}

async function prepare(spec: unknown, id: string): Promise<PreparedItem> {
  const item = await prepareItem(environmentSpecSchema.parse(spec), id);
  created.add(item.image);
  return item;
}

/** Runs `command` in the rep's container as `user`, outside the judge's reach. */
async function inContainer(rep: DockerRep, user: string, command: string): Promise<string> {
  const result = await execInContainer(
    docker.getContainer(rep.containerId),
    ['sh', '-c', command],
    {
      user,
      timeoutMs: 30_000,
      maxOutputBytes: 64 * 1024,
      useTimeoutCommand: false,
    },
  );
  return `${result.stdout.toString()}${result.stderr.toString()}`.trim();
}

/** The superuser's look at the server: a fixed query of ours, never the judge's text. */
function asSuperuser(rep: DockerRep, sql: string): Promise<string> {
  return inContainer(rep, 'postgres', `psql -X -At -U postgres -d postgres -c "${sql}"`);
}

const sleepers = (rep: DockerRep) =>
  asSuperuser(
    rep,
    "SELECT count(*) FROM pg_stat_activity WHERE query ILIKE '%pg_sleep%' AND pid <> pg_backend_pid()",
  );

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  if (!available) return;
  await ensurePostgresImage({ docker });
  prepared = await prepare({ shell: false, postgres: { sql: dump } }, `pg-attack-${run}`);
}, 900_000);

afterAll(async () => {
  for (const image of created) {
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
  }
});

describe("the judge's sql_query on PostgreSQL", () => {
  it('runs no psql meta-command: \\! is SQL the server refuses, no shell runs', async (context) => {
    needDocker(context);
    await withRep(prepared, async (rep) => {
      const { environment } = rep;
      for (const attack of [
        '\\! touch /tmp/pwned',
        '\\! psql -U postgres -d app -c "ALTER ROLE judge_readonly SUPERUSER"',
        '\\! psql -U postgres -d app -c "COPY (SELECT 1) TO PROGRAM \'touch /tmp/pwned\'"',
        'SELECT 1 \\g /tmp/pwned',
      ]) {
        await expect(environment.sqlQuery(attack, defaultToolLimits)).rejects.toThrow(
          /syntax error/,
        );
      }
      expect(await inContainer(rep, '0', 'ls /tmp/pwned 2>&1 || true')).toMatch(/No such file/);
      expect(
        await asSuperuser(rep, "SELECT rolsuper FROM pg_roles WHERE rolname = 'judge_readonly'"),
      ).toBe('f');
      // The same query still works when it is SQL.
      const result = await environment.sqlQuery(
        'SELECT count(*) AS n FROM orders',
        defaultToolLimits,
      );
      expect(result.rows).toEqual([['3']]);
    });
  }, 300_000);

  it('cannot run a program, become the superuser or change roles, even where it may write', async (context) => {
    needDocker(context);
    const writer = await prepare(
      { shell: false, postgres: { sql: dump, access: 'read-write' } },
      `pg-attack-rw-${run}`,
    );
    // Read-only, the transaction refuses first; read-write (as the owner), the privileges do.
    const denied =
      /permission denied|must be superuser|must have admin option|read-only transaction/;
    for (const item of [prepared, writer]) {
      await withRep(item, async (rep) => {
        const { environment } = rep;
        const refusals: [string, RegExp][] = [
          ["COPY (SELECT 1) TO PROGRAM 'touch /tmp/pwned'", denied],
          ["COPY orders TO '/tmp/pwned'", denied],
          ['SET ROLE postgres', /permission denied/],
          ['ALTER ROLE judge_readonly SUPERUSER', denied],
          ['ALTER ROLE agent SUPERUSER', denied],
          ['CREATE ROLE intruder SUPERUSER', denied],
          ['GRANT pg_execute_server_program TO agent', denied],
          ['SET SESSION AUTHORIZATION postgres', /permission denied/],
          ['SET statement_timeout = 0; SELECT 1', /one statement per call/],
        ];
        for (const [attack, refusal] of refusals) {
          await expect(environment.sqlQuery(attack, defaultToolLimits), attack).rejects.toThrow(
            refusal,
          );
        }
        expect(await inContainer(rep, '0', 'ls /tmp/pwned 2>&1 || true')).toMatch(/No such file/);
        expect(
          await asSuperuser(
            rep,
            "SELECT string_agg(rolname || ':' || rolsuper || rolcreaterole, ',' ORDER BY rolname) FROM pg_roles WHERE rolname !~ '^pg_'",
          ),
        ).toBe('agent:falsefalse,judge_readonly:falsefalse,postgres:truetrue');
      });
    }
  }, 300_000);

  it("authenticates by peer: no user but the server's own reaches the superuser", async (context) => {
    needDocker(context);
    await withRep(prepared, async (rep) => {
      // As the judge's user (what a shell, or a meta-command's shell, would be).
      expect(
        await inContainer(rep, 'agent', 'psql -X -At -U postgres -d postgres -c "SELECT 1"'),
      ).toMatch(/Peer authentication failed/);
      expect(
        await inContainer(rep, '0', 'psql -X -At -U postgres -d postgres -c "SELECT 1"'),
      ).toMatch(/Peer authentication failed/);
      expect(await asSuperuser(rep, 'SHOW hba_file')).toMatch(/pg_hba\.conf$/);
      expect(
        await inContainer(
          rep,
          'postgres',
          'grep -v "^#" "$(psql -X -At -d postgres -U postgres -c "SHOW hba_file")" | grep -c trust || true',
        ),
      ).toBe('0');
    });
  }, 300_000);

  it('ends a query on the server at its time limit, whatever the query sets or catches', async (context) => {
    needDocker(context);
    const limits = { ...defaultToolLimits, commandTimeoutMs: 6000 };
    await withRep(prepared, async (rep) => {
      const { environment } = rep;
      for (const attack of [
        'SET statement_timeout = 0; SELECT pg_sleep(60)',
        "SELECT set_config('statement_timeout', '0', false), pg_sleep(60)",
        'DO $$ BEGIN LOOP BEGIN PERFORM pg_sleep(60); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END $$',
      ]) {
        const started = Date.now();
        await expect(environment.sqlQuery(attack, limits), attack).rejects.toThrow(
          /timed out|one statement/,
        );
        expect(Date.now() - started).toBeLessThan(limits.commandTimeoutMs + 5000);
        expect(await sleepers(rep), attack).toBe('0');
      }
    });
  }, 300_000);
});

describe("an item's SQL dump", () => {
  it('runs no meta-command while the image is made (no shell as root)', async (context) => {
    needDocker(context);
    await expect(
      prepare(
        { shell: true, postgres: { sql: 'CREATE TABLE t (a int);\n\\! touch /pwned\n' } },
        `pg-dump-shell-${run}`,
      ),
    ).rejects.toThrow(/postgres\.sql, line 2: `\\!` is a psql meta-command/);
    await expect(
      prepare(
        {
          shell: true,
          files: { 'seed.sql': '\\connect - postgres\nALTER ROLE judge_readonly SUPERUSER;\n' },
          postgres: { dumpFile: 'seed.sql' },
        },
        `pg-dump-connect-${run}`,
      ),
    ).rejects.toThrow(/postgres\.dumpFile seed\.sql, line 1: `\\connect`/);
  }, 300_000);

  it("cannot make the judge's role a superuser: it loads as the owner", async (context) => {
    needDocker(context);
    await expect(
      prepare(
        { shell: true, postgres: { sql: 'ALTER ROLE judge_readonly SUPERUSER;\n' } },
        `pg-dump-super-${run}`,
      ),
    ).rejects.toThrow(
      /loading the PostgreSQL dump.*line 1: .*(permission denied|must be superuser)/s,
    );
    // A COPY ... FROM stdin dump with backslashes in its data loads as data.
    const item = await prepare(
      {
        shell: true,
        postgres: {
          sql: 'CREATE TABLE notes (body text);\nCOPY notes (body) FROM stdin;\n\\\\! id\nplain\n\\.\n',
        },
      },
      `pg-dump-copy-${run}`,
    );
    await withRep(item, async ({ environment }) => {
      const result = await environment.sqlQuery(
        'SELECT body FROM notes ORDER BY body',
        defaultToolLimits,
      );
      expect(result.rows).toEqual([['\\! id'], ['plain']]);
    });
  }, 300_000);
});
