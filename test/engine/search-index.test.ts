/**
 * The workbench's full-text search (store/search-index.ts, migration 0015) on real SQLite
 * files: phrases, prefixes and filters find the reps whose texts hold them; keys are never
 * indexed; rows written after the index exists are found; hostile text is searched as text;
 * and a workspace written before the index is migrated, filled and searchable.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchLabCall } from '../../src/main/engine/api';
import { createEngine, type Engine } from '../../src/main/engine/engine';
import { engineStore } from '../../src/main/engine/engine-store';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { migrations } from '../../src/main/engine/store/migrations';
import { workbenchPage } from '../../src/main/engine/reports';
import { queryStudyReps } from '../../src/main/engine/store/rep-query';
import { fillSearchIndex, unindexedRepCount } from '../../src/main/engine/store/search-index';
import { registerTextFunctions } from '../../src/main/engine/store/text-blobs';
import type { LabRequest, LabResponse } from '../../src/shared/lab-api';
import { KEY, runStudy } from '../helpers/bundle-study';
import { makeTempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

/** Every term the index holds (fts5vocab over the contentless table). */
function indexedTerms(store: Store): string[] {
  store.db.exec(
    'CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms USING fts5vocab(main, search_texts, row)',
  );
  return store.db.prepare('SELECT term FROM temp.search_terms').pluck().all() as string[];
}

/** Adds message `seq` with `content` to a rep, as the runner's statement would. */
function addMessage(store: Store, repId: string, seq: number, content: string): void {
  store.db
    .prepare(
      `INSERT INTO judge_messages (rep_id, seq, role, content, is_error)
       VALUES (?, ?, 'assistant', ?, 0)`,
    )
    .run(repId, seq, content);
}

const LONG_TEXT =
  'Reading the quarterly ledger reconciliation again: the archived invoices balance, and ' +
  'the totals match the bank statement line by line.';

describe('search through the full-text index', () => {
  const dir = makeTempDir();
  let engine: Engine;
  let store: Store;
  let studyId: string;
  let repIds: string[];

  beforeAll(async () => {
    engine = createEngine({ path: dir.path, source: 'flag' });
    store = engineStore(engine);
    studyId = await runStudy(store);
    repIds = queryStudyReps(store, { studyId }).rows.map((row) => row.repId);
    // Written after the index exists: one long (stored compressed) and one short text.
    addMessage(store, repIds[0] as string, 500, LONG_TEXT);
    addMessage(store, repIds[4] as string, 500, 'ledger reconciled');
    addMessage(store, repIds[2] as string, 500, 'The ledger is not reconciled yet.');
  });
  afterAll(() => {
    engine.close();
    dir.remove();
  });

  async function query(filters: Omit<LabRequest<'queryReps'>, 'studyId'>) {
    const result = await dispatchLabCall(engine.handlers, 'queryReps', { studyId, ...filters });
    if (!result.ok) throw new Error(`queryReps: ${result.error.message}`);
    return result.value as LabResponse<'queryReps'>;
  }
  const found = async (search: string, filters = {}) =>
    (await query({ search, ...filters })).rows.map((row) => row.repId).sort();

  it('finds words in any order, phrases in order, and prefixes, in stored messages', async () => {
    expect(await found('reconciliation quarterly')).toEqual([repIds[0]]);
    expect(await found('"ledger reconciliation"')).toEqual([repIds[0]]);
    expect(await found('"reconciliation ledger"')).toEqual([]);
    expect(await found('reconcil*')).toEqual([repIds[0], repIds[2], repIds[4]].sort());
    expect(await found('reconcil')).toEqual([]);
    expect(await found('LEDGER')).toEqual(expect.arrayContaining([repIds[0], repIds[4]]));
  });

  it('finds rationales, and keeps the filters and sort', async () => {
    const cued = (await query({ flipped: 'harmful' })).rows[0];
    const { value } = (await dispatchLabCall(engine.handlers, 'loadRepPair', {
      repA: cued?.repId as string,
    })) as { ok: true; value: LabResponse<'loadRepPair'> };
    const a = value.a;
    const words = a.rationale.split(/\s+/).slice(0, 4).join(' ');
    expect(await found(words)).toContain(cued?.repId);
    // The task text is in every rep's prompt; the direction filter narrows it to the control.
    const uncued = await query({ search: 'invoices', direction: 'uncued' });
    expect(uncued.rows.map((row) => row.direction)).toEqual(['', '', '']);
    const sorted = await query({ search: 'invoices', sort: 'rep', descending: true });
    expect(sorted.rows.map((row) => row.rep)).toEqual([3, 3, 2, 2, 1, 1]);
    const paged = await query({ search: 'invoices', limit: 4, offset: 4 });
    expect(paged.rows).toHaveLength(2);
    expect(paged.hasMore).toBe(false);
  });

  it('never indexes a key: the trajectory leaked one, and no search or term finds it', async () => {
    expect(await found('ANTHROPIC_API_KEY')).toHaveLength(6);
    const byKey = await dispatchLabCall(engine.handlers, 'queryReps', { studyId, search: KEY });
    expect(byKey).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    if (!byKey.ok) expect(byKey.error.message).toContain('looks like an API key');
    expect(await found('7c1d2e3f4a5b')).toEqual([]);
    expect(await found('bundle test 7c1d2e3f4a5b')).toEqual([]);
    const terms = indexedTerms(store);
    expect(terms).toContain('ledger');
    expect(terms.filter((term) => term.includes('7c1d2e3f4a5b'))).toEqual([]);
  });

  it('searches hostile text as text: no syntax error, no operator, no column filter', async () => {
    // Each of these is FTS5 syntax when written bare; quoted, they are words or nothing.
    expect(await found('ledger OR nonexistentword')).toEqual([]);
    expect(await found('ledger NOT reconciled')).toEqual([repIds[2]]);
    expect(await found('NEAR(ledger bank, 2)')).toEqual([]);
    expect(await found('text:ledger')).toEqual([]);
    expect(await found('"ledger reconciled')).toEqual([repIds[4]]);
    expect(await found('ledger"" AND (reconciled) ^ledger -x')).toEqual([]);
    const both = [repIds[2], repIds[4]].sort();
    expect(await found('ledger* : reconciled')).toEqual(both);
    expect(await found("ledger' reconciled;--")).toEqual(both);
    for (const search of ['%', '*', '"', '""', '()', '^', ':', '-', 'NEAR']) {
      const result = await dispatchLabCall(engine.handlers, 'queryReps', { studyId, search });
      if (result.ok) expect(search).toBe('NEAR');
      else {
        expect(result.error.code).toBe('bad_request');
        expect(result.error.message).toContain('no letters or digits');
      }
    }
  });

  it('refuses a 1 MB search with a clear error, at the API and in the store', async () => {
    const huge = 'ledger '.repeat(150_000);
    const result = await dispatchLabCall(engine.handlers, 'queryReps', { studyId, search: huge });
    expect(result.ok).toBe(false);
    expect(() => queryStudyReps(store, { studyId, search: huge })).toThrow(
      /1049999 characters long; at most 200 are searched/,
    );
    expect(() => queryStudyReps(store, { studyId, search: 'a '.repeat(17) })).toThrow(
      /17 words; at most 16/,
    );
  });

  it('drops a rep from the index with its rows', async () => {
    const docOf = (repId: string) =>
      store.db.prepare('SELECT doc FROM search_reps WHERE rep_id = ?').pluck().get(repId);
    const matching = () =>
      store.db
        .prepare('SELECT DISTINCT rowid >> 20 FROM search_texts WHERE search_texts MATCH ?')
        .pluck()
        .all('"reconciled"');
    const gone = docOf(repIds[4] as string);
    expect(matching()).toEqual(expect.arrayContaining([gone, docOf(repIds[2] as string)]));
    store.db.prepare('DELETE FROM jobs WHERE rep_id = ?').run(repIds[4]);
    store.db.prepare('DELETE FROM judge_reps WHERE id = ?').run(repIds[4]);
    expect(docOf(repIds[4] as string)).toBeUndefined();
    expect(matching()).toEqual([docOf(repIds[2] as string)]);
    expect(await found('reconcil*')).toEqual([repIds[0], repIds[2]].sort());
  });
});

describe('a workspace written before the index', () => {
  const dir = makeTempDir();
  const file = join(dir.path, 'cuelab.sqlite');
  let studyId: string;
  let firstRep: string;

  beforeAll(async () => {
    const old = openStore(file, { migrations: migrations.filter((m) => m.version < 15) });
    studyId = await runStudy(old);
    firstRep = queryStudyReps(old, { studyId }).rows[0]?.repId as string;
    old.close();
    // A text stored by an engine that did not redact (a raw connection): the fill must not
    // index its key.
    const raw = new Database(file);
    registerTextFunctions(raw);
    raw
      .prepare(
        `INSERT INTO judge_messages (rep_id, seq, role, content, is_error)
         VALUES (?, 900, 'assistant', ?, 0)`,
      )
      .run(firstRep, `Older transcript: the marmalade inventory was verified with ${KEY} today.`);
    raw.close();
  });
  afterAll(() => dir.remove());

  it('is migrated, filled a batch at a time, and then searchable without its keys', () => {
    const store = openStore(file);
    try {
      expect(store.schemaVersion).toBe(migrations.length);
      expect(unindexedRepCount(store, studyId)).toBe(6);
      expect(queryStudyReps(store, { studyId, search: 'marmalade' }).rows).toEqual([]);
      const first = fillSearchIndex(store, { maxReps: 4 });
      expect(first).toEqual({ indexed: 4, pending: 2 });
      expect(fillSearchIndex(store)).toEqual({ indexed: 2, pending: 0 });
      expect(unindexedRepCount(store, studyId)).toBe(0);
      const rows = queryStudyReps(store, { studyId, search: 'marmalade inventory' }).rows;
      expect(rows.map((row) => row.repId)).toEqual([firstRep]);
      expect(queryStudyReps(store, { studyId, search: 'invoices' }).rows).toHaveLength(6);
      expect(queryStudyReps(store, { studyId, search: 'marmalade 7c1d2e3f4a5b' }).rows).toEqual([]);
      expect(indexedTerms(store).filter((term) => term.includes('7c1d2e3f4a5b'))).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('fills in the background of an engine, the workbench noting it until done', async () => {
    const second = makeTempDir();
    try {
      const old = openStore(join(second.path, 'cuelab.sqlite'), {
        migrations: migrations.filter((m) => m.version < 15),
      });
      const id = await runStudy(old);
      old.close();
      // The page before the fill (the engine's reads worker answers pages on a thread of its
      // own, so the engine's first batch may land before it: the page is asked here directly).
      const migrated = openStore(join(second.path, 'cuelab.sqlite'));
      try {
        const first = workbenchPage(migrated, { studyId: id, search: 'invoices' });
        expect(first.rows).toEqual([]);
        expect(first.note).toContain('6 reps of this study are not searched');
      } finally {
        migrated.close();
      }
      const engine = createEngine({ path: second.path, source: 'flag' });
      try {
        await until(() => unindexedRepCount(engineStore(engine), id) === 0, 'the background fill');
        const later = await dispatchLabCall(engine.handlers, 'queryReps', {
          studyId: id,
          search: 'invoices',
        });
        expect(later).toMatchObject({ ok: true, value: { note: null } });
        if (later.ok) expect((later.value as LabResponse<'queryReps'>).rows).toHaveLength(6);
      } finally {
        engine.close();
      }
    } finally {
      second.remove();
    }
  });

  it('migrates a workspace holding a damaged verdict, which the page then names', async () => {
    const third = makeTempDir();
    try {
      const file = join(third.path, 'cuelab.sqlite');
      const old = openStore(file, { migrations: migrations.filter((m) => m.version < 15) });
      const id = await runStudy(old);
      const damaged = queryStudyReps(old, { studyId: id }).rows[0]?.repId as string;
      old.db.prepare(`UPDATE judge_reps SET final_verdict_json = '{' WHERE id = ?`).run(damaged);
      old.close();
      const store = openStore(file);
      try {
        expect(store.schemaVersion).toBe(migrations.length);
        expect(() => queryStudyReps(store, { studyId: id, sort: 'verdict' })).toThrow(
          `judge_reps row ${damaged}: final_verdict_json`,
        );
      } finally {
        store.close();
      }
    } finally {
      third.remove();
    }
  });
});
