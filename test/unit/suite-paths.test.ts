import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSuite } from '../../src/main/engine/suites/load';
import type { SuiteFile } from '../../src/shared/suite-format';

// Every path field refuses traversal on Windows as on POSIX.
const fixture = JSON.parse(readFileSync('test/fixtures/mini-suite.json', 'utf8')) as SuiteFile;

function withEnvironment(environment: Record<string, unknown>): string {
  const [item] = fixture.items;
  return JSON.stringify({ ...fixture, items: [{ ...item, environment }] });
}

describe('suite path fields', () => {
  const hostile = [
    '..\\..\\Windows\\win.ini',
    'logs\\..\\..\\x',
    'C:/Users/me/.ssh/authorized_keys',
    'c:relative',
    'logs/D:/x',
    '//server/share/x',
    '../escape',
    'a/../../b',
    'nul\0byte',
  ];

  it.each(hostile)('refuses %j as a file path, a database path and a workdir', (path) => {
    const asFile = withEnvironment({ files: { [path]: 'x' } });
    expect(() => parseSuite(asFile, 'suite.json')).toThrow(/items\.0\.environment\.files/);
    const asDatabase = withEnvironment({ database: { path, sql: 'CREATE TABLE t (x);' } });
    expect(() => parseSuite(asDatabase, 'suite.json')).toThrow(/environment\.database\.path/);
    const asWorkdir = withEnvironment({ workdir: `/${path}` });
    if (!path.startsWith('/'))
      expect(() => parseSuite(asWorkdir, 'suite.json')).toThrow(/environment\.workdir/);
  });

  it('keeps ordinary paths', () => {
    const fine = withEnvironment({
      files: { 'logs/app.log': 'x', 'notes.v2/a-b_c.txt': 'y', './here.txt': 'z' },
      database: { path: 'data/state.db', sql: 'CREATE TABLE t (x);' },
      workdir: '/srv/project',
    });
    expect(parseSuite(fine, 'suite.json').items[0]?.environment.files).toHaveProperty(
      'logs/app.log',
    );
  });
});
