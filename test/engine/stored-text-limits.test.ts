/**
 * A workspace's stored texts are read back within a limit (store/text-blobs.ts): a 405-byte
 * brotli body that inflates to 500 MiB, written into a real SQLite workspace, fails the one
 * request that meets it as `store_unreadable` naming table, row and field, in bounded memory,
 * while a real `cuelab serve` keeps answering; the open check reads a sample of stored texts;
 * a damaged body is named the same way, never `internal: Decompression failed`.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { constants, createBrotliCompress } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine/engine';
import { ensureWorkspace } from '../../src/main/engine/workspace';
import { openStore } from '../../src/main/engine/store/database';
import {
  maxStoredTextBytes,
  packText,
  StoredTextError,
  unpackText,
} from '../../src/main/engine/store/text-blobs';
import { sampledTextIds } from '../../src/main/engine/store/text-damage';
import { runStudy } from '../helpers/bundle-study';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { makeTempDir } from '../helpers/temp-dir';

const mebibyte = 1024 * 1024;

/** A brotli stream of 500 MiB of one letter: about 400 bytes, made without 500 MiB in memory. */
function brotliBomb(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const compressor = createBrotliCompress({
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 24 },
    });
    const parts: Buffer[] = [];
    compressor.on('data', (part: Buffer) => parts.push(part));
    compressor.on('end', () => resolve(Buffer.concat(parts)));
    compressor.on('error', reject);
    const chunk = Buffer.alloc(mebibyte, 0x61);
    let written = 0;
    const write = () => {
      while (written < 500) {
        written += 1;
        if (!compressor.write(chunk)) {
          compressor.once('drain', write);
          return;
        }
      }
      compressor.end();
    };
    write();
  });
}

/** Bodies as text-blobs.ts lays them out: legacy (no length), and one declaring `length`. */
const legacyBody = (payload: Buffer) => Buffer.concat([Buffer.of(1), payload]);
function sizedBody(payload: Buffer, length: number): Buffer {
  const header = Buffer.alloc(5);
  header[0] = 2;
  header.writeUInt32LE(length, 1);
  return Buffer.concat([header, payload]);
}

/** A transcript row whose text is a blob: where it is, and the blob's id. */
function blobbedText(db: Database.Database) {
  const rows = db
    .prepare(
      `SELECT 'judge_tool_calls' AS tableName, 'output' AS field, rep_id AS repId, seq, output_blob AS blob
         FROM judge_tool_call_rows WHERE output_blob IS NOT NULL
       UNION ALL
       SELECT 'judge_messages', 'content', rep_id, seq, content_blob
         FROM judge_message_rows WHERE content_blob IS NOT NULL
       ORDER BY repId, seq`,
    )
    .all() as { tableName: string; field: string; repId: string; seq: number; blob: number }[];
  const row = rows[0];
  if (!row) throw new Error('no transcript text stored as a blob');
  return { ...row, place: `${row.tableName} row ${row.repId}/${String(row.seq)}: ${row.field}` };
}

describe('stored texts are read within a limit', { timeout: 180_000 }, () => {
  const dir = makeTempDir();
  let bomb: Buffer;

  beforeAll(async () => {
    bomb = await brotliBomb();
  });
  afterAll(() => dir.remove());

  it('the bomb is small', () => {
    expect(bomb.length).toBeLessThan(1024);
  });

  it('unpacks what it packs, and refuses a body that inflates past what it records', () => {
    const text = `${'tool output line é✓\n'.repeat(500)}end`;
    expect(unpackText(packText(text))).toBe(text);
    const payload = packText(text).subarray(5);
    const short = sizedBody(payload, Buffer.byteLength(text) - 1);
    expect(() => unpackText(short)).toThrow(/more than the \d+ bytes it may hold/);
    const long = sizedBody(payload, Buffer.byteLength(text) + 1);
    expect(() => unpackText(long)).toThrow(/not the \d+ it records/);
    expect(() => unpackText(sizedBody(bomb, 100))).toThrow(StoredTextError);
    expect(() => unpackText(sizedBody(bomb, maxStoredTextBytes + 1))).toThrow(
      /more than the \d+ a text may hold/,
    );
    expect(() => unpackText(legacyBody(bomb))).toThrow(/more than the 1048576 bytes/);
    // A body written before lengths were recorded still reads back.
    const legacy = legacyBody(packText(text).subarray(5));
    expect(unpackText(legacy)).toBe(text);
    expect(() => unpackText(Buffer.of(7, 1, 2))).toThrow(/unknown codec 7/);
  });

  it('names a damaged stored text as store_unreadable with table, row and field', async () => {
    const workspace = join(dir.path, 'damaged');
    ensureWorkspace({ path: workspace, source: 'flag' });
    const store = openStore(join(workspace, 'cuelab.sqlite'));
    await runStudy(store);
    store.close();
    const engine = createEngine({ path: workspace, source: 'flag' });
    try {
      // Damage met after the open check (which samples): the request names it.
      const raw = new Database(join(workspace, 'cuelab.sqlite'));
      const target = blobbedText(raw);
      raw
        .prepare('UPDATE text_blobs SET body = ? WHERE id = ?')
        .run(legacyBody(Buffer.from('not brotli at all, just bytes')), target.blob);
      raw.close();
      let failure: unknown;
      try {
        await engine.handlers.loadRepPair({ repA: target.repId });
      } catch (error) {
        failure = error;
      }
      expect(failure).toMatchObject({ code: 'store_unreadable' });
      expect((failure as Error).message).toContain(
        `${target.place} (text_blobs row ${String(target.blob)}): the stored text is damaged`,
      );
      expect((failure as Error).message).not.toMatch(/^internal/);
    } finally {
      engine.close();
    }
  });

  it('the open check reads the newest stored texts and names the bomb', async () => {
    const workspace = join(dir.path, 'open-check');
    ensureWorkspace({ path: workspace, source: 'flag' });
    const path = join(workspace, 'cuelab.sqlite');
    const store = openStore(path);
    await runStudy(store);
    const newest = store.db.prepare('SELECT max(id) FROM text_blobs').pluck().get() as number;
    expect(sampledTextIds(store.db)).toContain(newest);
    store.close();
    const raw = new Database(path);
    raw.prepare('UPDATE text_blobs SET body = ? WHERE id = ?').run(legacyBody(bomb), newest);
    raw.close();
    expect(() => openStore(path)).toThrow(
      expect.objectContaining({
        code: 'store_unreadable',
        message: expect.stringMatching(
          new RegExp(
            `judge_\\w+ row [^:]+: \\w+ \\(text_blobs row ${String(newest)}\\): the stored text inflates to more than`,
          ),
        ) as unknown,
      }),
    );
  });

  describe('a served engine meeting the bomb', () => {
    let serve: ServeProcess | undefined;
    afterAll(async () => {
      await serve?.stop();
    });

    it('fails that request fast in bounded memory and keeps answering', async () => {
      const workspace = join(dir.path, 'served');
      ensureWorkspace({ path: workspace, source: 'flag' });
      const path = join(workspace, 'cuelab.sqlite');
      const store = openStore(path);
      const studyId = await runStudy(store);
      const target = blobbedText(store.db);
      store.close();
      serve = await startServeProcess(workspace);
      // The first calls warm the engine up (modules, statements); the timing is of later ones.
      expect((await serve.lab.health({})).ok).toBe(true);
      expect((await serve.lab.loadRepPair({ repA: target.repId })).ok).toBe(true);
      // Damage that happens while the engine runs: the open check cannot have seen it.
      const raw = new Database(path);
      raw.pragma('busy_timeout = 5000');
      raw.prepare('UPDATE text_blobs SET body = ? WHERE id = ?').run(legacyBody(bomb), target.blob);
      raw.close();
      const replay = serve.lab.loadRepPair({ repA: target.repId });
      const healthSent = performance.now();
      const health = await serve.lab.health({});
      const healthMs = performance.now() - healthSent;
      const study = await serve.lab.studyProgress({ studyId });
      const answer = await replay;
      expect(health.ok).toBe(true);
      expect(healthMs).toBeLessThan(1000);
      expect(study.ok).toBe(true);
      expect(answer.ok).toBe(false);
      if (answer.ok) return;
      expect(answer.error.code).toBe('store_unreadable');
      expect(answer.error.message).toContain(
        `${target.place} (text_blobs row ${String(target.blob)}): the stored text inflates to more than the 1048576 bytes`,
      );
      expect((await serve.lab.health({})).ok).toBe(true);
      expect(serve.child.exitCode).toBeNull();
      expect(serve.peakRss()).toBeLessThan(400 * mebibyte);
    });
  });
});
