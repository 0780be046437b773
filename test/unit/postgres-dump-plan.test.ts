import { describe, expect, it } from 'vitest';
import { planDump } from '../../src/main/engine/substrates/postgres/dump-plan';

// A plain dump is split the way psql splits a script, so the container's protocol client can
// load it without psql: statements, COPY data, and no meta-command ever run.
describe('planning a plain SQL dump', () => {
  it('splits statements and carries COPY ... FROM stdin data to its \\. line', () => {
    const dump = [
      '-- pg_dump header',
      "SET standard_conforming_strings = 'on';",
      'CREATE TABLE t (id int, note text);',
      'COPY public.t (id, note) FROM stdin;',
      '1\tsemi; colon',
      '2\t\\N',
      '\\.',
      "INSERT INTO t VALUES (3, 'it''s; fine'), (4, E'back\\\\'';x'), (5, $q$dollar; $q$);",
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql',
      'BEGIN ATOMIC',
      '  SELECT 1;',
      '  SELECT CASE WHEN true THEN 2 END;',
      'END;',
      'CREATE RULE r AS ON INSERT TO t DO ALSO (SELECT 1; SELECT 2);',
      '/* a /* nested */ comment; */ SELECT "odd;name" FROM t;',
      'SELECT 6',
    ].join('\n');
    const steps = planDump(dump);
    expect(steps.map((step) => step.line)).toEqual([2, 3, 4, 8, 9, 14, 15, 16]);
    expect(steps[2]).toEqual({
      sql: 'COPY public.t (id, note) FROM stdin;',
      line: 4,
      copy: '1\tsemi; colon\n2\t\\N\n',
    });
    expect(steps[3]?.sql).toBe(
      "INSERT INTO t VALUES (3, 'it''s; fine'), (4, E'back\\\\'';x'), (5, $q$dollar; $q$);",
    );
    expect(steps[4]?.sql).toContain('END;');
    expect(steps[5]?.sql).toBe('CREATE RULE r AS ON INSERT TO t DO ALSO (SELECT 1; SELECT 2);');
    expect(steps[6]?.sql).toBe('SELECT "odd;name" FROM t;');
    expect(steps[7]?.sql).toBe('SELECT 6');
    expect(steps.filter((step) => step.copy !== undefined)).toHaveLength(1);
  });

  it('refuses every psql meta-command, naming its line', () => {
    expect(() => planDump('SELECT 1;\n\\! touch /pwned\n')).toThrow(
      /the dump, line 2: `\\!` is a psql meta-command/,
    );
    expect(() => planDump('\\connect - postgres\nALTER ROLE judge_readonly SUPERUSER;')).toThrow(
      /line 1: `\\connect`/,
    );
    expect(() => planDump("SELECT 'x' \\gexec")).toThrow(/`\\gexec`/);
    expect(() => planDump('COPY t FROM stdin;\n1\n\\.\n\\copy t to program')).toThrow(
      /line 4: `\\copy`/,
    );
  });

  it('skips \\restrict and \\unrestrict (they only guard psql) and keeps backslashes in data', () => {
    const steps = planDump(
      '\\restrict abc\nCOPY t FROM stdin;\n\\! not a command here\n\\.\n\\unrestrict abc\n',
    );
    expect(steps).toEqual([
      { sql: 'COPY t FROM stdin;', line: 2, copy: '\\! not a command here\n' },
    ]);
  });

  it('reads COPY data to the end when no \\. line comes, and refuses text after FROM stdin;', () => {
    expect(planDump('COPY t FROM STDIN;\n1\n2')).toEqual([
      { sql: 'COPY t FROM STDIN;', line: 1, copy: '1\n2' },
    ]);
    expect(() => planDump('COPY t FROM stdin; SELECT 1;\n1\n\\.\n')).toThrow(/same line/);
  });

  it('plans adversarial megabyte dumps in one pass', () => {
    const shapes = [
      '$'.repeat(1 << 20),
      '$a'.repeat(1 << 19),
      "'".repeat(1 << 20),
      '/*'.repeat(1 << 19),
      '('.repeat(1 << 20),
      `COPY t FROM stdin;\n${'\n\\x'.repeat(1 << 18)}`,
      `CREATE FUNCTION f() BEGIN ${'begin '.repeat(1 << 17)}`,
      ';'.repeat(1 << 20),
      'a'.repeat(1 << 20),
    ];
    const started = Date.now();
    for (const shape of shapes) planDump(shape);
    // Generous: a quadratic pass over any of these takes minutes.
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
