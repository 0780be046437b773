import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { ensurePostgresImage } from '../../src/main/engine/environments/docker/bootstrap';
import { listManagedContainers } from '../../src/main/engine/environments/docker/orphans';
import { prepareItem, type PreparedItem } from '../../src/main/engine/environments/docker/prepare';
import { withRep } from '../../src/main/engine/environments/docker/rep';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { judgeToolSpecs, runTool } from '../../src/main/engine/judge/tools';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { dockerForTest } from '../helpers/docker';

const skipReason = 'Docker is not running here (set CUELAB_REQUIRE_DOCKER=1 to make this fail)';
const run = `${process.pid}-${randomUUID().slice(0, 8)}`;
const docker = new Docker();
let available = false;
const created = new Set<string>();

const dump = `CREATE TABLE accounts (id integer PRIMARY KEY, owner text NOT NULL, note text);
INSERT INTO accounts VALUES (1, 'ada', NULL), (2, 'brian', ''), (3, 'comma, "quoted"', E'two\\nlines');
-- ${run}
`;

function needDocker(context: TestContext): void {
  if (!available) context.skip(skipReason);
}

async function prepare(spec: unknown, id: string): Promise<PreparedItem> {
  const prepared = await prepareItem(environmentSpecSchema.parse(spec), id, {
    trajectory: [
      { role: 'user', content: 'close account 2' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: {
              name: 'shell',
              arguments: JSON.stringify({ command: 'psql -c "DELETE FROM accounts WHERE id = 2"' }),
            },
          },
        ],
      },
      { role: 'tool', content: 'DELETE 1', tool_call_id: 'c1' },
    ],
  });
  created.add(prepared.image);
  return prepared;
}

beforeAll(async () => {
  available = (await dockerForTest()) !== null;
  if (!available) return;
  await ensurePostgresImage({ docker });
}, 900_000);

afterAll(async () => {
  for (const image of created) {
    await docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
  }
});

describe('PostgreSQL substrate', () => {
  it('replays the agent against a live server, snapshots it, and serves sql_query read-only', async (context) => {
    needDocker(context);
    const item = `pg-env-${run}`;
    const prepared = await prepare({ shell: true, replay: true, postgres: { sql: dump } }, item);
    expect(prepared.state?.description).toContain('read-only');
    await withRep(prepared, async ({ environment }) => {
      expect(environment.capabilities.sql).toBe(true);
      expect(environment.description).toContain('judge_readonly');
      const offered = new Set(
        judgeToolSpecs(environment, {
          kind: 'binary',
          dimension: 'task_success',
          instructions: '',
        }).map((t) => t.name),
      );
      expect(offered.has('sql_query')).toBe(true);
      const result = await environment.sqlQuery(
        'SELECT id, owner, note FROM accounts ORDER BY id',
        defaultToolLimits,
      );
      expect(result.columns).toEqual(['id', 'owner', 'note']);
      // The replayed DELETE reached the snapshot; NULL stays null, text stays text.
      expect(result.rows).toEqual([
        ['1', 'ada', null],
        ['3', 'comma, "quoted"', 'two\nlines'],
      ]);
      await expect(
        environment.sqlQuery("UPDATE accounts SET owner = 'x'", defaultToolLimits),
      ).rejects.toThrow(/read-only transaction/);
      const outcome = await runTool(
        'sql_query',
        { sql: 'SELECT count(*) AS n FROM accounts' },
        {
          environment,
          trajectoryLines: [],
          limits: defaultToolLimits,
          offered: new Set(['sql_query']),
        },
      );
      expect(outcome).toEqual({ content: 'n\n2\n(1 rows)', isError: false });
      // The shell reaches the same server as the agent's role.
      const shell = await environment.exec('psql -At -c "SELECT owner FROM accounts ORDER BY id"', {
        ...defaultToolLimits,
      });
      expect(shell.stdout).toBe('ada\ncomma, "quoted"\n');
      expect(shell.exitCode).toBe(0);
    });
    // A fresh rep does not see what an earlier rep did.
    await withRep(prepared, async ({ environment }) => {
      await environment.exec('psql -c "DELETE FROM accounts"', defaultToolLimits);
    });
    await withRep(prepared, async ({ environment }) => {
      const result = await environment.sqlQuery('SELECT count(*) FROM accounts', defaultToolLimits);
      expect(result.rows).toEqual([['2']]);
      const network = await environment.exec(
        'cat /sys/class/net/*/operstate | wc -l; ls /sys/class/net',
        defaultToolLimits,
      );
      expect(network.stdout.trim().split('\n').slice(1)).toEqual(['lo']);
    });
    expect(await listManagedContainers(docker, { item })).toEqual([]);
  }, 300_000);

  it('lets a read-write item write through sql_query, and loads a dump file', async (context) => {
    needDocker(context);
    const prepared = await prepare(
      {
        shell: true,
        files: { "seed/it's a dump.sql": dump },
        postgres: { dumpFile: "seed/it's a dump.sql", access: 'read-write', database: 'shop' },
      },
      `pg-rw-${run}`,
    );
    await withRep(prepared, async ({ environment }) => {
      expect(environment.description).toContain('may change it');
      await environment.sqlQuery(
        "UPDATE accounts SET owner = 'zed' WHERE id = 1",
        defaultToolLimits,
      );
      const result = await environment.sqlQuery(
        'SELECT owner FROM accounts WHERE id = 1',
        defaultToolLimits,
      );
      expect(result.rows).toEqual([['zed']]);
    });
  }, 300_000);

  it('loads a pg_dump custom-format archive taken from a live server', async (context) => {
    needDocker(context);
    const source = await prepare({ shell: true, postgres: { sql: dump } }, `pg-src-${run}`);
    const archive = await withRep(source, async ({ environment }) => {
      const result = await environment.exec('pg_dump --format=custom --no-owner app | base64 -w0', {
        ...defaultToolLimits,
        maxOutputBytes: 1024 * 1024,
      });
      expect(result.exitCode).toBe(0);
      return result.stdout.trim();
    });
    const restored = await prepare(
      { shell: true, postgres: { archive, database: 'restored', owner: 'shop' } },
      `pg-archive-${run}`,
    );
    await withRep(restored, async ({ environment }) => {
      const result = await environment.sqlQuery(
        'SELECT owner FROM accounts ORDER BY id',
        defaultToolLimits,
      );
      expect(result.rows).toEqual([['ada'], ['brian'], ['comma, "quoted"']]);
      const owner = await environment.exec('psql -At -c "SELECT current_user"', defaultToolLimits);
      expect(owner.stdout).toBe('shop\n');
    });
  }, 300_000);

  it('names the failing statement when a dump does not load', async (context) => {
    needDocker(context);
    await expect(
      prepare(
        {
          shell: true,
          postgres: { sql: 'CREATE TABLE t (id int);\nINSERT INTO nope VALUES (1);' },
        },
        `pg-bad-${run}`,
      ),
    ).rejects.toThrow(/loading the PostgreSQL dump.*relation "nope" does not exist/s);
  }, 300_000);
});
