/**
 * The workspace connection redacts what every statement binds (store/redacting-statements.ts),
 * and the known keys are kept between statements: a key remembered after the list was built
 * must still be redacted, values left unchanged must reach SQLite as they were, and a read
 * binds its value redacted the same way as the write that stored it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberKeys } from '../../src/main/engine/secrets';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { makeTempDir } from '../helpers/temp-dir';

describe('statements of the workspace connection', () => {
  const dir = makeTempDir();
  let store: Store;

  beforeAll(() => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    store.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT, size INTEGER, raw BLOB)');
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });

  const bodies = () =>
    store.db.prepare('SELECT body FROM notes ORDER BY id').pluck().all() as string[];

  it('redacts a key remembered after earlier statements had built the list of known keys', () => {
    const insert = store.db.prepare('INSERT INTO notes (body) VALUES (?)');
    insert.run('nothing secret in this one');
    rememberKeys({ LATE_SERVICE_TOKEN: 'late-token-6d1f0a93' });
    insert.run('echo late-token-6d1f0a93 done');
    expect(bodies().slice(-2)).toEqual([
      'nothing secret in this one',
      'echo [redacted:LATE_SERVICE_TOKEN] done',
    ]);
  });

  it('redacts named, listed and bound parameters, and leaves numbers and buffers as they were', () => {
    const key = 'sk-proj-4fG7hJ2kL9mN1pQ3rS5tU8vW0xY';
    store.db
      .prepare('INSERT INTO notes (body, size, raw) VALUES (@body, @size, @raw)')
      .run({ body: `named ${key}`, size: 7, raw: Buffer.from(key) });
    store.db.prepare('INSERT INTO notes (body, size) VALUES (?, ?)').run([`listed ${key}`, 8]);
    const bound = store.db.prepare('INSERT INTO notes (body) VALUES (?)').bind(`bound ${key}`);
    bound.run();
    expect(bodies().slice(-3)).toEqual([
      'named [redacted:key]',
      'listed [redacted:key]',
      'bound [redacted:key]',
    ]);
    const row = store.db.prepare('SELECT size, raw FROM notes WHERE size = 7').get() as {
      size: number;
      raw: Buffer;
    };
    expect(row.size).toBe(7);
    expect(row.raw.toString()).toBe(key);
  });

  it('finds a stored value by the text it was written from, key and all', () => {
    rememberKeys({ LOOKUP_SECRET: 'lookup-secret-0b7c55' });
    store.db.prepare('INSERT INTO notes (body) VALUES (?)').run('study lookup-secret-0b7c55 pilot');
    const found = store.db
      .prepare('SELECT body FROM notes WHERE body = ?')
      .pluck()
      .get('study lookup-secret-0b7c55 pilot');
    expect(found).toBe('study [redacted:LOOKUP_SECRET] pilot');
  });
});
