/**
 * A connection keeps the texts it inflated lately (store/text-blobs.ts): on a real SQLite
 * database, every read gives back its own blob's text, in any order, after the memo has had to
 * drop old texts, and a damaged body still fails as it did.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { packText, registerTextFunctions } from '../../src/main/engine/store/text-blobs';

describe('the inflated-text memo of a connection', () => {
  let db: Database.Database | undefined;
  afterEach(() => db?.close());

  it('gives every blob its own text, before and after old texts are dropped', () => {
    db = new Database(':memory:');
    registerTextFunctions(db);
    db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    // 3,000 distinct texts of 4,000+ characters: more than the memo holds (8 Mi characters).
    const texts = Array.from(
      { length: 3000 },
      (_, index) => `text ${String(index)} é✓ ${'abcdefghij'.repeat(400)} ${String(index * 7)}`,
    );
    const insert = db.prepare('INSERT INTO blobs (id, body) VALUES (?, ?)');
    db.transaction(() => texts.forEach((text, index) => insert.run(index, packText(text))))();
    const read = db.prepare<[number], { text: string }>(
      'SELECT cuelab_text_unpack(body) AS text FROM blobs WHERE id = ?',
    );
    const orders = [
      texts.map((_, index) => index),
      texts.map((_, index) => texts.length - 1 - index),
      texts.map((_, index) => (index * 7919) % texts.length),
      texts.map((_, index) => index % 50),
    ];
    for (const order of orders)
      for (const index of order) expect(read.get(index)?.text).toBe(texts[index]);
  });

  it('still refuses a damaged body after reading a good one', () => {
    db = new Database(':memory:');
    registerTextFunctions(db);
    const good = packText('a text long enough to be compressed '.repeat(40));
    const damaged = Buffer.from(good);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 3) ^ 0xff, damaged.length - 3);
    damaged.writeUInt8(damaged.readUInt8(6) ^ 0xff, 6);
    const unpack = db.prepare<[Buffer], { text: string }>('SELECT cuelab_text_unpack(?) AS text');
    expect(unpack.get(good)?.text).toContain('a text long enough');
    expect(() => unpack.get(damaged)).toThrow(/stored text/);
    expect(() => unpack.get(damaged)).toThrow(/stored text/);
  });
});
