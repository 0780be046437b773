/**
 * Item and judge SQL written by a stranger: a script or query that never ends is killed at its
 * time limit while the engine's event loop keeps turning, a script that writes without bound
 * stops at the size cap, and a judge query's breach is a tool error the rep survives.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateArchive } from '../../src/main/engine/environments/docker/snapshot-steps';
import { dockerItemSettings } from '../../src/main/engine/environments/docker/item-settings';
import { provisionEnvironment } from '../../src/main/engine/environments/provision';
import { defaultToolLimits, type ToolLimits } from '../../src/main/engine/contract/environment';
import { runTool } from '../../src/main/engine/judge/tools';
import { environmentSpecSchema } from '../../src/shared/suite-format';

const endless = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)';
const spec = (sql: string) =>
  environmentSpecSchema.parse({ files: {}, database: { path: 'state.db', sql } });

const saved = { ...process.env };
beforeAll(() => {
  process.env.CUELAB_SQL_TIMEOUT_SECONDS = '2';
  process.env.CUELAB_SQL_MAX_DATABASE_MB = '8';
});
afterAll(() => {
  process.env.CUELAB_SQL_TIMEOUT_SECONDS = saved.CUELAB_SQL_TIMEOUT_SECONDS;
  process.env.CUELAB_SQL_MAX_DATABASE_MB = saved.CUELAB_SQL_MAX_DATABASE_MB;
  if (saved.CUELAB_SQL_TIMEOUT_SECONDS === undefined) delete process.env.CUELAB_SQL_TIMEOUT_SECONDS;
  if (saved.CUELAB_SQL_MAX_DATABASE_MB === undefined) delete process.env.CUELAB_SQL_MAX_DATABASE_MB;
});

/** Runs `work` while a 50 ms interval ticks; resolves to its outcome and the longest gap. */
async function whileTicking<T>(work: () => Promise<T>) {
  let last = Date.now();
  let longestGap = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
    ticks += 1;
  }, 50);
  try {
    const outcome = await work().then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error: error as Error }),
    );
    return { ...outcome, longestGap, ticks };
  } finally {
    clearInterval(timer);
  }
}

function leftovers(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('cuelab-item-db-'));
}

describe('item SQL that never ends', () => {
  it('is killed at the time limit while the event loop keeps answering, and the item is refused', async () => {
    const before = leftovers();
    const bomb = spec(`CREATE TABLE t AS ${endless} SELECT count(*) FROM c;`);
    const run = await whileTicking(() => provisionEnvironment(bomb, { id: 'endless-item' }));
    expect(run.error?.message).toMatch(
      /^item endless-item: environment\.database\.sql did not finish within 2 s \(the item SQL time limit\), so the item is refused\. Fix: .*CUELAB_SQL_TIMEOUT_SECONDS/,
    );
    // The bound proves "never blocked", not a speed: a blocked loop would show one 2 s gap.
    expect(run.longestGap).toBeLessThan(1000);
    expect(run.ticks).toBeGreaterThan(15);
    expect(leftovers()).toEqual(before);
    // The next item is built as usual: the killed child was replaced.
    const honest = await provisionEnvironment(
      spec('CREATE TABLE t (x); INSERT INTO t VALUES (1);'),
      {
        id: 'honest',
      },
    );
    try {
      const rows = await honest.environment.sqlQuery('SELECT x FROM t', defaultToolLimits);
      expect(rows.rows).toEqual([[1]]);
    } finally {
      await honest.dispose();
    }
  }, 20_000);

  it('is refused the same way on the Docker backend, which builds the file on the host', async () => {
    const bomb = spec(`CREATE TABLE t AS ${endless} SELECT count(*) FROM c;`);
    const run = await whileTicking(() =>
      stateArchive(bomb, dockerItemSettings(bomb, undefined), 'docker-endless'),
    );
    expect(run.error?.message).toMatch(/^item docker-endless: .*did not finish within 2 s/);
    expect(run.longestGap).toBeLessThan(1000);
  }, 20_000);
});

describe('a SQL process that dies', () => {
  it('refuses the item naming how, and the next item gets a fresh process', async () => {
    const bomb = spec(`CREATE TABLE t AS ${endless} SELECT count(*) FROM c;`);
    const building = provisionEnvironment(bomb, { id: 'killed-item' });
    // This test's own SQL children only (-P), found by the handler in their source.
    let pids: string[] = [];
    for (let tries = 0; tries < 40 && pids.length === 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const found = spawnSync('pgrep', ['-P', String(process.pid), '-f', 'handleSqlRequest']);
      pids = found.stdout.toString().split('\n').filter(Boolean);
    }
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
    await expect(building).rejects.toThrow(
      /^item killed-item: environment\.database\.sql: the SQL process (died \(SIGKILL\)|could not start)/,
    );
    const honest = await provisionEnvironment(spec('CREATE TABLE t (x);'), { id: 'after' });
    await honest.dispose();
  }, 20_000);
});

describe('item SQL that writes without bound', () => {
  it.each([
    ['a table', `CREATE TABLE t AS ${endless} SELECT zeroblob(100000) AS b FROM c;`],
    ['a temp table', `CREATE TEMP TABLE t AS ${endless} SELECT zeroblob(100000) AS b FROM c;`],
  ])('stops at the size cap when it fills %s', async (_what, sql) => {
    await expect(provisionEnvironment(spec(sql), { id: 'zeroblob-item' })).rejects.toThrow(
      /^item zeroblob-item: environment\.database\.sql grew its database past 8 MiB \(the item SQL size limit; database or disk is full\), so the item is refused\. Fix: .*CUELAB_SQL_MAX_DATABASE_MB/,
    );
  });

  it('refuses PRAGMA page_size, which would multiply the cap', async () => {
    await expect(
      provisionEnvironment(spec('PRAGMA page_size = 65536; CREATE TABLE t (x);'), { id: 'pages' }),
    ).rejects.toThrow(/PRAGMA page_size is not allowed/);
  });
});

describe("the judge's sql_query on a stranger's database", () => {
  const limits: ToolLimits = { ...defaultToolLimits, commandTimeoutMs: 1500 };
  const item = spec("CREATE TABLE t (x); INSERT INTO t VALUES ('one'), ('two');");

  it('is stopped at the per-call limit as a tool error, and the rep goes on', async () => {
    const provisioned = await provisionEnvironment(item, { id: 'judge-query' });
    try {
      const { environment } = provisioned;
      const context = {
        environment,
        trajectoryLines: [],
        limits,
        offered: new Set(['sql_query']),
      };
      const run = await whileTicking(() =>
        runTool('sql_query', { sql: `${endless} SELECT count(*) FROM c` }, context),
      );
      expect(run.value?.isError).toBe(true);
      expect(run.value?.content).toMatch(
        /^sql_query failed: the query did not finish within 1\.5 s \(the per-call time limit\) and was stopped/,
      );
      expect(run.longestGap).toBeLessThan(1000);
      const next = await runTool('sql_query', { sql: 'SELECT x FROM t ORDER BY x' }, context);
      expect(next).toEqual({ isError: false, content: 'x\none\ntwo\n(2 rows)' });
    } finally {
      await provisioned.dispose();
    }
  }, 20_000);

  it('caps the bytes of what it returns, and names a blob too large to return by its size', async () => {
    const provisioned = await provisionEnvironment(item, { id: 'judge-bytes' });
    try {
      const small: ToolLimits = { ...limits, maxOutputBytes: 1000 };
      const many = await provisioned.environment.sqlQuery(
        `${endless} SELECT printf('%.100c', 'x') FROM c LIMIT 100000`,
        small,
      );
      expect(many.rows.length).toBe(10);
      expect(many.truncated).toBe(true);
      const blob = await provisioned.environment.sqlQuery('SELECT zeroblob(50000000), 7', small);
      expect(blob).toEqual({
        columns: ['zeroblob(50000000)', '7'],
        rows: [['<blob 50000000 bytes, too large to return>', 7]],
        truncated: true,
      });
      await expect(
        provisioned.environment.sqlQuery("DELETE FROM t WHERE x = 'one'", limits),
      ).rejects.toThrow(/only queries that return rows/);
    } finally {
      await provisioned.dispose();
    }
  });
});
