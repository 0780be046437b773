/**
 * Cancelling file work from outside the engine (api/file-work.ts `cancelFileWork`, the HTTP
 * server's hang-up), against real SQLite workspaces and the real files worker. The work is held
 * mid-way without timing: a second connection holds the workspace's write lock, so the worker's
 * transaction waits for it while the test cancels; the lock is let go only after the answer.
 * Then nothing of the work may be in the database file, and the next work runs (the lock the
 * cancelled worker waited for is not left held).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { EngineError } from '../../src/main/engine/errors';
import {
  claimCancel,
  claimCommit,
  guardedStore,
  newCommitFlag,
} from '../../src/main/engine/workers';
import { startServer, type RunningServer } from '../../src/main/server/http-server';
import type { LabEventMessage } from '../../src/shared/lab-api';
import { createLabClient } from '../../src/shared/lab-client';
import { KEY, runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';
import { answerOf } from '../helpers/answer';

const exampleRuns = join(__dirname, '..', '..', 'resources', 'runs', 'terminal-bench-hello-world');

/** Holds the write lock of the database at `path` until `release`. */
function holdWriteLock(path: string): { release(): void } {
  const db = new Database(path);
  db.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

/** Rows of `table` in the database file at `path`, counted on a connection of its own. */
function rowsIn(path: string, table: string, where = '1', ...values: unknown[]): number {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...values);
    return (row as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('cancelling file work', () => {
  const dirs = { a: makeTempDir(), b: makeTempDir(), files: makeTempDir() };
  let a: Engine;
  let b: Engine;
  let studyId: string;
  let bundleFile = '';
  const heard: LabEventMessage[] = [];

  /** The id of the latest `method` work heard at `step`, once heard. */
  async function workAt(method: string, step: RegExp): Promise<string> {
    let workId = '';
    await until(
      () => {
        for (const event of heard) {
          if (event.stream !== 'files.progress' || event.data.method !== method) continue;
          if (step.test(event.data.step ?? '')) workId = event.data.workId;
        }
        return workId !== '';
      },
      `${method} at ${String(step)}`,
      60_000,
    );
    return workId;
  }

  beforeAll(async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', KEY);
    a = createEngine({ path: dirs.a.path, source: 'flag' });
    b = createEngine({ path: dirs.b.path, source: 'flag' });
    studyId = await runStudy(engineStore(a));
    const bundle = await answerOf(a.handlers.exportBundle({ studyId }));
    bundleFile = join(dirs.files.path, bundle.fileName);
    writeFileSync(bundleFile, Buffer.from(bundle.base64, 'base64'));
    b.events.subscribe((event) => heard.push(event));
  }, 120_000);
  afterAll(() => {
    vi.unstubAllEnvs();
    a.close();
    b.close();
    for (const dir of Object.values(dirs)) dir.remove();
  });

  it('cancels a bundle opened mid-way: the call says so and the file holds nothing of it', async () => {
    heard.length = 0;
    const database = engineStore(b).path;
    const lock = holdWriteLock(database);
    let answered: unknown;
    try {
      const opening = Promise.resolve(b.handlers.openBundle({ path: bundleFile })).catch(
        (error: unknown) => error,
      );
      // Its reps are being stored: the worker now waits for the write lock.
      const workId = await workAt('openBundle', /^storing 6 reps$/);
      expect(await b.handlers.cancelFileWork({ workId })).toEqual({
        cancelled: true,
        message: 'Cancelled.',
      });
      answered = await opening;
    } finally {
      lock.release();
    }
    expect(answered).toBeInstanceOf(EngineError);
    expect(answered).toMatchObject({
      code: 'cancelled',
      message: 'Opening the bundle was cancelled. Nothing was stored.',
    });
    expect(rowsIn(database, 'studies', 'id = ?', studyId)).toBe(0);
    expect(rowsIn(database, 'judge_reps')).toBe(0);
    expect((await b.handlers.listStudies({})).map((study) => study.id)).not.toContain(studyId);
    // The same bundle opens afterwards, whole: nothing half-stored is in its way.
    const opened = await b.handlers.openBundle({ path: bundleFile });
    expect(opened).toMatchObject({ studyId, reps: 6, replaced: false });
    expect(rowsIn(database, 'studies', 'id = ?', studyId)).toBe(1);
  });

  it('cancels an import of runs as a suite before it is stored', async () => {
    heard.length = 0;
    const database = engineStore(b).path;
    const suitesBefore = rowsIn(database, 'suites');
    const lock = holdWriteLock(database);
    let answered: unknown;
    try {
      const importing = Promise.resolve(
        b.handlers.importRuns({ path: exampleRuns, format: 'auto', name: 'to cancel', save: true }),
      ).catch((error: unknown) => error);
      const workId = await workAt('importRuns', /^storing the suite$/);
      expect((await b.handlers.cancelFileWork({ workId })).cancelled).toBe(true);
      answered = await importing;
    } finally {
      lock.release();
    }
    expect(answered).toMatchObject({
      code: 'cancelled',
      message: 'Reading the runs was cancelled. Nothing was stored.',
    });
    expect(rowsIn(database, 'suites')).toBe(suitesBefore);
  });

  it('says so when the work named is not under way', async () => {
    expect(await b.handlers.cancelFileWork({ workId: 'no-such-work' })).toEqual({
      cancelled: false,
      message: 'That work is not under way (it may have finished).',
    });
  });

  describe('over HTTP', () => {
    let server: RunningServer;
    beforeAll(async () => {
      const rendererDir = join(dirs.files.path, 'renderer');
      mkdirSync(rendererDir);
      writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
      server = await startServer({ engine: b, rendererDir });
    });
    afterAll(() => server.close());

    it('answers a cancelled call as `cancelled`, which the client reads as such', async () => {
      heard.length = 0;
      const client = createLabClient(server.address);
      const database = engineStore(b).path;
      const lock = holdWriteLock(database);
      try {
        const importing = client.importRuns({
          path: exampleRuns,
          format: 'auto',
          name: 'cancelled over http',
          save: true,
        });
        const workId = await workAt('importRuns', /^storing the suite$/);
        const cancelled = await client.cancelFileWork({ workId });
        expect(cancelled).toEqual({ ok: true, value: { cancelled: true, message: 'Cancelled.' } });
        expect(await importing).toEqual({
          ok: false,
          error: {
            code: 'cancelled',
            message: 'Reading the runs was cancelled. Nothing was stored.',
          },
        });
      } finally {
        lock.release();
      }
    });

    it('cancels the work of a caller that hangs up before the answer', async () => {
      heard.length = 0;
      const database = engineStore(b).path;
      const suitesBefore = rowsIn(database, 'suites');
      const lock = holdWriteLock(database);
      try {
        const hangUp = new AbortController();
        const request = fetch(new URL('/api/importRuns', server.address.baseUrl), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${server.address.token}`,
          },
          body: JSON.stringify({ path: exampleRuns, format: 'auto', name: 'hung up', save: true }),
          signal: hangUp.signal,
        }).catch((error: unknown) => error);
        const workId = await workAt('importRuns', /^storing the suite$/);
        hangUp.abort();
        expect(await request).toMatchObject({ name: 'AbortError' });
        // The engine heard the hang-up (its last event says so) while the write still waited.
        expect(await workAt('importRuns', /^cancelled$/)).toBe(workId);
      } finally {
        lock.release();
      }
      // The files lane runs in order: once a later import is answered, the first has ended.
      const after = await b.handlers.importRuns({ path: exampleRuns, format: 'auto', save: false });
      expect(after.saved).toBe(false);
      expect(rowsIn(database, 'suites')).toBe(suitesBefore);
    });
  });
});

describe('the race between a cancel and a commit', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());
  const path = join(dir.path, 'race.db');
  const open = () => {
    const db = new Database(path);
    db.exec('CREATE TABLE IF NOT EXISTS rows (value TEXT)');
    return { db, path, schemaVersion: 0, close: () => db.close() };
  };

  it('a cancel that comes first rolls the transaction back when it would commit', () => {
    const store = open();
    const flag = newCommitFlag();
    const guarded = guardedStore(store, flag);
    const write = guarded.db.transaction(() => {
      guarded.db.prepare('INSERT INTO rows VALUES (?)').run('first');
      // The engine's thread cancels while the rows are written.
      expect(claimCancel(flag)).toBe('cancelled');
    });
    expect(() => write()).toThrow('The work was cancelled; nothing was stored.');
    expect(rowsIn(path, 'rows')).toBe(0);
    store.close();
  });

  it('a commit that comes first stands, and the cancel says it came too late', () => {
    const store = open();
    const flag = newCommitFlag();
    const guarded = guardedStore(store, flag);
    guarded.db.transaction(() => guarded.db.prepare('INSERT INTO rows VALUES (?)').run('kept'))();
    expect(claimCancel(flag)).toBe('storing');
    expect(() => claimCommit(flag)).not.toThrow();
    expect(rowsIn(path, 'rows')).toBe(1);
    store.close();
  });
});
