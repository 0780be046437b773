import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSandboxedSql } from '../../src/main/engine/environments/item-sql';
import { createSnapshotEnvironment } from '../../src/main/engine/environments/snapshot';
import { stateArchive } from '../../src/main/engine/environments/docker/snapshot-steps';
import { dockerItemSettings } from '../../src/main/engine/environments/docker/item-settings';
import { defaultToolLimits } from '../../src/main/engine/contract/environment';
import { environmentSpecSchema } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

// An item's SQL runs on the host; none of it may reach another file.
let scratch: { path: string; remove: () => void };
beforeEach(() => {
  scratch = makeTempDir('cuelab-item-sql-');
  mkdirSync(join(scratch.path, 'x'));
});
afterEach(() => scratch.remove());

const spec = (sql: string) =>
  environmentSpecSchema.parse({ files: {}, database: { path: 'state.db', sql } });

describe('item SQL sandbox', () => {
  const exploits = (evil: string) => [
    `ATTACH '${evil}' AS p; CREATE TABLE p.t (x); INSERT INTO p.t VALUES ('ssh-ed25519 AAAA');`,
    `attach database 'file:${evil}?mode=rwc' as p; create table p.t (x);`,
    `CREATE TABLE t (x); VACUUM INTO '${evil}';`,
    `/* harmless */ CREATE TABLE t (x);\n  Attach\t'${evil}' AS "p"; CREATE TABLE p.u (y);`,
    `CREATE TABLE t (x); SELECT load_extension('${evil}');`,
    `CREATE TABLE t (x); SELECT "load_extension"('${evil}');`,
    `PRAGMA writable_schema = ON; CREATE TABLE t (x);`,
    `CREATE TABLE t (x); INSERT INTO t VALUES (:path); ATTACH :path AS p;`,
  ];

  it('refuses every way of opening or writing another file, and creates none', () => {
    const evil = join(scratch.path, 'x', 'evil.db');
    for (const sql of exploits(evil)) {
      expect(() => createSnapshotEnvironment(spec(sql)), sql).toThrow(/not allowed/);
      expect(existsSync(evil), sql).toBe(false);
    }
    expect(readdirSync(join(scratch.path, 'x'))).toEqual([]);
  });

  it('refuses the same scripts on the Docker backend, which builds the file on the host too', async () => {
    const evil = join(scratch.path, 'x', 'evil.db');
    for (const sql of exploits(evil)) {
      const item = spec(sql);
      await expect(stateArchive(item, dockerItemSettings(item, undefined)), sql).rejects.toThrow(
        /not allowed/,
      );
    }
    expect(existsSync(evil)).toBe(false);
  });

  it("cannot read another workspace's database through the judge's sql_query", async () => {
    const other = join(scratch.path, 'workspace.sqlite');
    const secret = new Database(other);
    secret.exec("CREATE TABLE keys (value TEXT); INSERT INTO keys VALUES ('top secret')");
    secret.close();
    const provisioned = createSnapshotEnvironment(spec('CREATE TABLE t (x);'));
    try {
      const { environment } = provisioned;
      for (const query of [
        `ATTACH '${other}' AS o`,
        `SELECT * FROM o.keys`,
        `SELECT load_extension('${other}')`,
      ]) {
        await expect(environment.sqlQuery(query, defaultToolLimits), query).rejects.toThrow();
      }
    } finally {
      await provisioned.dispose();
    }
  });

  it('builds honest databases, words like "vacuum" in data and quoted names included', async () => {
    const provisioned = createSnapshotEnvironment(
      spec(
        'PRAGMA foreign_keys = ON;\n' +
          'CREATE TABLE "stock -- items" (name TEXT, note TEXT);\n' +
          "INSERT INTO \"stock -- items\" VALUES ('Vacuum cleaner', 'attach the hose; it''s ok');\n" +
          "INSERT INTO [stock -- items] VALUES ('Vacuum INTO', '/* not a comment */');",
      ),
    );
    try {
      const result = await provisioned.environment.sqlQuery(
        'SELECT name FROM "stock -- items" ORDER BY name',
        defaultToolLimits,
      );
      expect(result.rows).toEqual([['Vacuum INTO'], ['Vacuum cleaner']]);
    } finally {
      await provisioned.dispose();
    }
  });

  it('names the line of the refused statement', () => {
    expect(() => checkSandboxedSql('CREATE TABLE t (x);\n\nVACUUM;', 'items.0.sql')).toThrow(
      'items.0.sql: line 3: VACUUM is not allowed',
    );
    expect(() => checkSandboxedSql("SELECT 'unterminated", 'q')).toThrow(/unterminated/);
    expect(() => checkSandboxedSql('SELECT 1\0', 'q')).toThrow(/NUL/);
  });
});
