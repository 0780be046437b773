/**
 * Compact rep texts (migration 0011, store/text-blobs.ts) on real SQLite workspaces: a
 * workspace made at version 10 by the runner converts without loss (every message, tool
 * output, system prompt, tool list and label reads back byte for byte), a conversion that
 * fails leaves version 10 as it was and the next open completes it, and after it each distinct
 * long text is stored once, compressed, and redacted.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { loadJudgeRep } from '../../src/main/engine/store/judge-reps';
import { migrations } from '../../src/main/engine/store/migrations';
import { BUNDLE_TABLES } from '../../src/main/engine/export/bundle-format';
import { insertBundleRows, readBundleTables } from '../../src/main/engine/store/bundle-rows';
import {
  readStoredRep,
  repMessages,
  repToolCalls,
} from '../../src/main/engine/store/rep-transcripts';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { packText, unpackText } from '../../src/main/engine/store/text-blobs';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { deferring, KEY, suite } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { makeTempDir } from '../helpers/temp-dir';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

const version10 = migrations.slice(0, 10);

/** A suite whose files are long enough that the judge's tool outputs become blobs. */
function longSuite() {
  const file = suite();
  const ledger = Array.from({ length: 40 }, (_, line) => `inv-${line} archived é✓\n`).join('');
  return suiteFileSchema.parse({
    ...file,
    items: file.items.map((item) => ({
      ...item,
      environment: {
        files: {
          'archive/inv-001.txt': `amount: 120.00\n${'payload line\n'.repeat(30)}`,
          'ledger.txt': `inv-001 archived\n${ledger}`,
        },
      },
    })),
  });
}

/**
 * A version-10 workspace holding a finished synthetic study: the runner runs it on a current
 * workspace, and its rows, read as bundles read them (the texts as plain columns), are written
 * into version-10 tables, exactly the rows version 10's store wrote for the same reps.
 */
async function version10Workspace(path: string): Promise<string> {
  const current = openStore(`${path}.current`);
  const store = openStore(path, { migrations: version10 });
  try {
    const file = longSuite();
    saveSuite(current, file, 'imported');
    const judge = { id: 'deferring', provider: 'synthetic', model: 'synthetic' };
    const spec = studySpecSchema.parse({
      name: 'compact',
      suite: file.id,
      judges: [{ ...judge, persona: deferring.id }],
      reps: 3,
    });
    const studyId = await runSyntheticStudy(current, spec, file.items, deferring);
    current.db
      .prepare(
        `INSERT INTO mechanism_labels (rep_id, source, label, rationale, created_at)
         SELECT id, 'diff', 'over_trust', 'It adopted the cue: ' || id, created_at FROM judge_reps`,
      )
      .run();
    const rows = readBundleTables(current, studyId, file.id);
    // Version 10 had no turn reasoning (migration 13): the synthetic judge returns none anyway.
    rows.turns = rows.turns.map(({ reasoning: _reasoning, ...turn }) => turn);
    store.db.transaction(() => {
      for (const [key, table] of Object.entries(BUNDLE_TABLES))
        if (table !== 'annotators')
          insertBundleRows(store, table, rows[key as keyof typeof BUNDLE_TABLES]);
    })();
    return studyId;
  } finally {
    current.close();
    store.close();
  }
}

/** Every stored rep text, as plain rows, ordered. */
function texts(store: Store | Database.Database, version: 10 | 11) {
  const db = 'db' in store ? store.db : store;
  const all = (sql: string) => db.prepare(sql).all();
  const reps =
    version === 10
      ? all('SELECT * FROM judge_reps ORDER BY id')
      : (db.prepare('SELECT id FROM judge_reps ORDER BY id').pluck().all() as string[]).map(
          (id) => {
            const rep = loadJudgeRep(store as Store, id);
            if (!rep) throw new Error(`no rep ${id}`);
            const { messages: _m, turns: _t, tool_calls: _c, ...row } = rep;
            return row;
          },
        );
  return {
    reps,
    messages: all('SELECT * FROM judge_messages ORDER BY rep_id, seq'),
    toolCalls: all('SELECT * FROM judge_tool_calls ORDER BY rep_id, seq'),
    labels: all('SELECT * FROM mechanism_labels ORDER BY rep_id, source'),
    providerCalls: all('SELECT * FROM provider_calls ORDER BY job_id, seq'),
  };
}

/** The version-10 rows of judge_reps as loadJudgeRep shapes them (its JSON columns parsed). */
function asLoaded(before: ReturnType<typeof texts>, store: Store) {
  return (before.reps as { id: string }[]).map((row) => {
    const rep = loadJudgeRep(store, row.id);
    if (!rep) throw new Error(`no rep ${row.id}`);
    return { ...row, system_prompt: rep.system_prompt, tools_json: rep.tools_json };
  });
}

/** A version-10 workspace in a fresh folder, and its texts as version 10 holds them. */
async function preparedVersion10() {
  const dir = makeTempDir();
  cleanup = dir.remove;
  const path = join(dir.path, 'cuelab.sqlite');
  const studyId = await version10Workspace(path);
  const raw = new Database(path);
  const before = texts(raw, 10);
  raw.close();
  return { path, studyId, before };
}

describe('compact rep texts', () => {
  it('converts a version-10 workspace without loss', async () => {
    const { path, studyId, before } = await preparedVersion10();
    expect(before.toolCalls.length).toBeGreaterThan(6);
    expect(before.messages.length).toBeGreaterThan(before.toolCalls.length);

    const store = openStore(path);
    try {
      expect(store.schemaVersion).toBe(migrations.length);
      const after = texts(store, 11);
      expect(after.messages).toEqual(before.messages);
      expect(after.toolCalls).toEqual(before.toolCalls);
      expect(after.labels).toEqual(before.labels);
      expect(after.providerCalls).toEqual(before.providerCalls);
      // The logical rep rows (system prompt and tool list resolved) equal the old ones exactly.
      const bundled = readBundleTables(store, studyId, null).reps;
      const sorted = [...bundled].sort((a, b) => String(a.id).localeCompare(String(b.id)));
      expect(sorted).toEqual(before.reps);
      for (const rep of before.reps as { id: string; system_prompt: string }[]) {
        expect(readStoredRep(store, rep.id)?.systemPrompt).toBe(rep.system_prompt);
        const calls = repToolCalls(store, rep.id);
        const oldCalls = (before.toolCalls as { rep_id: string; output: string }[]).filter(
          (call) => call.rep_id === rep.id,
        );
        expect(calls.map((call) => call.output)).toEqual(oldCalls.map((call) => call.output));
        expect(repMessages(store, rep.id).length).toBeGreaterThan(0);
      }
      expect(asLoaded(before, store)).toEqual(before.reps);
      // The long texts moved to blobs; the old tables are gone.
      const count = (sql: string) => store.db.prepare(sql).pluck().get() as number;
      expect(count('SELECT count(*) FROM text_blobs')).toBeGreaterThan(3);
      expect(count('SELECT count(*) FROM judge_tool_call_rows WHERE output_blob IS NOT NULL')).toBe(
        (before.toolCalls as { output: string }[]).filter((call) => call.output.length >= 64)
          .length,
      );
      expect(count("SELECT count(*) FROM judge_reps WHERE system_prompt <> ''")).toBe(0);
      expect(
        count(
          "SELECT count(*) FROM sqlite_master WHERE name LIKE 'judge_%_v10' AND type = 'table'",
        ),
      ).toBe(0);
    } finally {
      store.close();
    }
  }, 60_000);

  it('leaves version 10 as it was when the conversion fails, and the next open completes it', async () => {
    const { path, before } = await preparedVersion10();

    const last = migrations[10];
    if (!last) throw new Error('migration 11 is missing');
    // A crash after every row was copied: the last statement of the step fails.
    const failing = [
      ...version10,
      { ...last, sql: `${last.sql}\nINSERT INTO no_such_table VALUES (1);` },
    ];
    expect(() => openStore(path, { migrations: failing })).toThrow(/stays at version 10/);
    const untouched = new Database(path);
    expect(untouched.pragma('user_version', { simple: true })).toBe(10);
    expect(texts(untouched, 10)).toEqual(before);
    untouched.close();

    const store = openStore(path);
    try {
      expect(store.schemaVersion).toBe(migrations.length);
      const after = texts(store, 11);
      expect(after.messages).toEqual(before.messages);
      expect(after.toolCalls).toEqual(before.toolCalls);
      expect(asLoaded(before, store)).toEqual(before.reps);
    } finally {
      store.close();
    }
  }, 60_000);

  it('stores each distinct long text once, compressed and redacted', async () => {
    const dir = makeTempDir();
    cleanup = dir.remove;
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    try {
      const file = longSuite();
      saveSuite(store, file, 'imported');
      const spec = studySpecSchema.parse({
        name: 'compact',
        suite: file.id,
        judges: [
          { id: 'deferring', provider: 'synthetic', model: 'synthetic', persona: deferring.id },
        ],
        reps: 3,
      });
      await runSyntheticStudy(store, spec, file.items, deferring);
      const db = store.db;
      const blobs = db.prepare('SELECT hash, body FROM text_blobs').all() as {
        hash: Buffer;
        body: Buffer;
      }[];
      const stored = blobs.map((blob) => unpackText(blob.body));
      expect(new Set(stored).size).toBe(stored.length);
      // The same file read in every rep, and echoed as the tool message: one blob.
      const outputs = db
        .prepare("SELECT output FROM judge_tool_calls WHERE output LIKE '%payload line%'")
        .pluck()
        .all() as string[];
      expect(outputs.length).toBeGreaterThan(1);
      expect(stored.filter((text) => text === outputs[0])).toHaveLength(1);
      // Keys are redacted on the way in, blobs included (the trajectory printed one).
      expect(stored.some((text) => text.includes('ANTHROPIC_API_KEY'))).toBe(true);
      expect(stored.some((text) => text.includes(KEY))).toBe(false);
      const messages = db.prepare('SELECT content FROM judge_messages').pluck().all() as string[];
      expect(messages.some((text) => text.includes(KEY))).toBe(false);
      // Texts around the inline limit and non-ASCII text round-trip exactly.
      const repId = db.prepare('SELECT id FROM judge_reps LIMIT 1').pluck().get() as string;
      const insert = db.prepare(
        `INSERT INTO judge_tool_calls (rep_id, seq, turn, call_id, name, input_json, output,
           is_error, duration_ms, result_number, stop_directive) VALUES (?, ?, 0, 'c', 'shell', '{}', ?, 0, 1, 1, 0)`,
      );
      const edge = ['', 'x'.repeat(63), 'x'.repeat(64), 'é'.repeat(64), '✓ \u0000 \n'.repeat(40)];
      edge.forEach((text, index) => insert.run(repId, 1000 + index, text));
      const back = db
        .prepare(
          'SELECT output FROM judge_tool_calls WHERE rep_id = ? AND seq >= 1000 ORDER BY seq',
        )
        .pluck()
        .all(repId);
      expect(back).toEqual(edge);
      db.prepare('DELETE FROM judge_tool_calls WHERE rep_id = ? AND seq >= 1000').run(repId);
      expect(repToolCalls(store, repId).every((call) => call.seq < 1000)).toBe(true);
    } finally {
      store.close();
    }
  }, 60_000);

  it('compresses a fixed tool output to under a third', () => {
    const output = Array.from(
      { length: 60 },
      (_, line) =>
        `${String(line).padStart(4)}  def handle_${line}(self, rows): return [r for r in rows if r.ok]`,
    ).join('\n');
    const body = packText(output);
    expect(unpackText(body)).toBe(output);
    expect(body.length / Buffer.byteLength(output)).toBeLessThan(1 / 3);
    expect(unpackText(packText('ab'))).toBe('ab');
  });
});
