/**
 * The report cache on a real SQLite workspace: after every batch of landed reps the
 * cached, incrementally updated rows and the tables served from them equal what the old path
 * (a full read, every table built from scratch) returns, row for row and number for number.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  TABLES,
  TABLE_NAMES,
  gradedTable,
  lastRowCacheRead,
  readStudyRows,
  reportTable,
  studyRows,
} from '../../src/main/engine/reports';
import { lastPairingUpdate, lastTallyUpdate } from '../../src/main/engine/analysis';
import {
  forgetPersistedTables,
  persistedTablesDir,
} from '../../src/main/engine/reports/persisted-tables';
import { forgetStudyRows, holdsStudyRows } from '../../src/main/engine/reports/row-cache';
import { forgetTables } from '../../src/main/engine/reports/table-cache';
import { seededRandom } from '../../src/main/engine/random';
import { expandConditions } from '../../src/main/engine/runner/conditions';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { studySpecSchema } from '../../src/shared/study-spec';
import { makeTempDir } from '../helpers/temp-dir';

const studyId = 'cache-study';
let cleanup: (() => void) | undefined;

afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

interface Job {
  id: number;
  itemId: string;
  judgeId: string;
  conditionKey: string;
  direction: string;
}

/** A study of 3 judges × 12 items × its conditions × 3 reps, every job queued. */
function seed(store: Store): Job[] {
  const spec = studySpecSchema.parse({
    name: 'cache',
    suite: 'cache-suite',
    judges: ['a', 'b', 'c'].map((id) => ({ id, provider: 'anthropic', model: `model-${id}` })),
    reps: 3,
    direction: 'both',
    arms: {
      // A placebo arm, so the flips table's beyond-placebo counts are carried batch to batch too.
      cues: [
        { kind: 'preset', preset: 'strong' },
        { kind: 'preset', preset: 'placebo' },
      ],
      mitigations: [[], [{ kind: 'builtin', id: 'guard' }]],
    },
  });
  const conditions = expandConditions(spec);
  const stamp = '2026-05-01T00:00:00.000Z';
  const db = store.db;
  db.prepare(
    `INSERT INTO studies (id, name, status, spec_json, simulated, created_at, updated_at)
     VALUES (?, 'cache', 'running', ?, 0, ?, ?)`,
  ).run(studyId, JSON.stringify(spec), stamp, stamp);
  for (let index = 0; index < 12; index += 1)
    db.prepare(
      'INSERT INTO study_items (study_id, item_id, position, dataset, gold) VALUES (?, ?, ?, ?, ?)',
    ).run(
      studyId,
      `item-${index}`,
      index,
      // App. D's excluded dataset, so the severity table's second tally is exercised too.
      index % 2 ? 'd1' : 'swe-bench-verified',
      index % 3 ? 'pass' : 'fail',
    );
  conditions.forEach((condition, position) =>
    db
      .prepare(
        'INSERT INTO study_conditions (study_id, key, position, label, body_json) VALUES (?, ?, ?, ?, ?)',
      )
      .run(studyId, condition.key, position, condition.label, JSON.stringify(condition)),
  );
  const insertJob = db.prepare(
    `INSERT INTO jobs (study_id, condition_key, item_id, judge_id, rep, direction, state, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'queued', ?)`,
  );
  const jobs: Job[] = [];
  for (const judge of spec.judges)
    for (let index = 0; index < 12; index += 1)
      for (const condition of conditions)
        for (const direction of condition.cue ? ['severity', 'leniency'] : [''])
          for (let rep = 1; rep <= 3; rep += 1) {
            const itemId = `item-${index}`;
            const result = insertJob.run(
              studyId,
              condition.key,
              itemId,
              judge.id,
              rep,
              direction,
              stamp,
            );
            jobs.push({
              id: Number(result.lastInsertRowid),
              itemId,
              judgeId: judge.id,
              conditionKey: condition.key,
              direction,
            });
          }
  return jobs;
}

/** Lands reps as the runner does: the rep row and its job's `done` in one transaction. */
function land(store: Store, jobs: readonly Job[], random: () => number): void {
  const insert = store.db.prepare(
    `INSERT INTO judge_reps (id, study_id, suite_id, item_id, provider, model, condition_json,
       outcome, final_verdict_json, system_prompt, tools_json, turns, created_at)
     VALUES (?, ?, 'cache-suite', ?, 'anthropic', 'm', ?, ?, ?, 'system', '[]', ?, ?)`,
  );
  const done = store.db.prepare(`UPDATE jobs SET state = 'done', rep_id = ? WHERE id = ?`);
  store.db.transaction(() => {
    for (const job of jobs) {
      const roll = random();
      const outcome = roll < 0.05 ? 'budget_exhausted' : roll < 0.1 ? 'invalid_verdict' : 'verdict';
      // The upper items are judged on a graded dimension (App. G), so the graded table's
      // tally over rows is carried over too.
      const graded = Number(job.itemId.slice('item-'.length)) >= 8;
      const verdict =
        outcome !== 'verdict'
          ? null
          : graded
            ? JSON.stringify({ kind: 'graded', score: 1 + Math.floor(random() * 100) })
            : JSON.stringify({ kind: 'binary', outcome: random() < 0.6 ? 'pass' : 'fail' });
      const repId = `rep-${job.id}-${Math.floor(random() * 1e9)}`;
      insert.run(
        repId,
        studyId,
        job.itemId,
        JSON.stringify({
          dimension: graded ? 'quality' : 'task_success',
          conditionKey: job.conditionKey,
        }),
        outcome,
        verdict,
        1 + Math.floor(random() * 40),
        '2026-05-01T00:00:00.000Z',
      );
      done.run(repId, job.id);
    }
  })();
}

/** What the old path gives: a full read, each table built from a fresh array. */
function oldTables(store: Store): [string, unknown][] {
  return TABLE_NAMES.flatMap((name): [string, unknown][] => {
    const definition = TABLES[name];
    if (name === 'graded') return [[name, gradedTable(readStudyRows(store, studyId))]];
    return 'build' in definition ? [[name, definition.build(readStudyRows(store, studyId))]] : [];
  });
}

function servedTables(store: Store) {
  return TABLE_NAMES.flatMap((name) => {
    const definition = TABLES[name];
    if (!('build' in definition) && name !== 'graded') return [];
    const { study: _study, ...table } = reportTable(store, studyId, name);
    return [[name, table]];
  });
}

describe('the report cache', () => {
  it('serves, batch after batch, exactly the rows and tables of a full read', () => {
    const dir = makeTempDir();
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    cleanup = () => {
      store.close();
      dir.remove();
    };
    const random = seededRandom(5, 'report-cache');
    const jobs = seed(store);
    // Reps land in a random order, as concurrent workers finish them.
    const order = [...jobs].sort(() => random() - 0.5);
    expect(studyRows(store, studyId)).toEqual([]);
    const reads: string[] = [];
    const pairings: string[] = [];
    const tallies: (string | undefined)[] = [];
    const graded: (string | undefined)[] = [];
    const repKinds: (string | undefined)[] = [];
    for (let start = 0; start < order.length; start += 97) {
      land(store, order.slice(start, start + 97), random);
      const rows = studyRows(store, studyId);
      reads.push(lastRowCacheRead().kind);
      const served = servedTables(store);
      pairings.push(lastPairingUpdate());
      tallies.push(lastTallyUpdate('flips'));
      graded.push(lastTallyUpdate('graded\u0000uncued\u000010'));
      repKinds.push(lastTallyUpdate('rep-rate-kinds'));
      expect(rows).toEqual(readStudyRows(store, studyId));
      expect(served).toEqual(oldTables(store));
    }
    expect(reads.slice(1).every((kind) => kind === 'incremental')).toBe(true);
    // The served tables were built from the pairings and counts carried over batch by batch
    // (analysis/pair-index.ts, scoped-tally.ts), and still equal the full recompute above.
    expect(pairings.slice(1).every((kind) => kind === 'incremental')).toBe(true);
    // The flip counts and their row order were carried over (scoped-tally.ts, first-seen.ts),
    // not counted again, on most batches.
    expect(tallies.slice(1).filter((kind) => kind === 'carried').length).toBeGreaterThan(
      tallies.length / 2,
    );
    expect(graded.slice(1).filter((kind) => kind === 'carried').length).toBeGreaterThan(
      graded.length / 2,
    );
    // The rep-pooled rates' item kinds were carried too (analysis/rep-rates.ts), and the flips
    // table has rep-pooled and beyond-placebo figures to compare.
    expect(repKinds.slice(1).filter((kind) => kind === 'carried').length).toBeGreaterThan(
      repKinds.length / 2,
    );
    const flips = reportTable(store, studyId, 'flips').rows;
    expect(flips.some((row) => row.harmfulBeyondPlaceboPp !== null)).toBe(true);
    expect(flips.some((row) => row.harmfulRepPct !== null)).toBe(true);
    // The graded table has rows to compare (the upper items are scored).
    expect(reportTable(store, studyId, 'graded').rows.length).toBeGreaterThan(0);
    // Asking again changes nothing and reads nothing.
    studyRows(store, studyId);
    expect(lastRowCacheRead()).toEqual({ kind: 'unchanged', repsRead: 0 });
  });

  it('reads in full again when a job leaves done, and never serves the stale rows', () => {
    const dir = makeTempDir();
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    cleanup = () => {
      store.close();
      dir.remove();
    };
    const random = seededRandom(9, 'report-cache');
    const jobs = seed(store);
    land(store, jobs.slice(0, 200), random);
    expect(studyRows(store, studyId)).toHaveLength(200);
    const [first] = jobs;
    store.db.prepare(`UPDATE jobs SET state = 'queued', rep_id = NULL WHERE id = ?`).run(first?.id);
    land(store, jobs.slice(200, 201), random);
    const rows = studyRows(store, studyId);
    expect(lastRowCacheRead().kind).toBe('full');
    expect(rows).toEqual(readStudyRows(store, studyId));
    expect(servedTables(store)).toEqual(oldTables(store));
  });

  it('serves a restarted engine every table from disk until the study changes', () => {
    const dir = makeTempDir();
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    cleanup = () => {
      store.close();
      dir.remove();
    };
    const random = seededRandom(11, 'report-cache');
    const jobs = seed(store);
    land(store, jobs.slice(0, 300), random);
    const restart = () => {
      forgetStudyRows(store);
      forgetTables(store);
      forgetPersistedTables(store);
    };
    const everyTable = () =>
      TABLE_NAMES.map((name) => {
        const { study: _study, ...table } = reportTable(store, studyId, name);
        return table;
      });
    const drawn = everyTable();
    restart();
    // Every table as drawn before, and no rep read to serve them.
    expect(everyTable()).toEqual(drawn);
    expect(holdsStudyRows(store, studyId)).toBe(false);
    // Reps landing make the persisted tables stale: built again, from the reps.
    land(store, jobs.slice(300, 400), random);
    restart();
    const grown = everyTable();
    expect(grown).not.toEqual(drawn);
    expect(servedTables(store)).toEqual(oldTables(store));
    // A damaged file is only a miss.
    const folder = persistedTablesDir(store.path);
    for (const file of readdirSync(folder)) writeFileSync(join(folder, file), '{"key":');
    restart();
    expect(everyTable()).toEqual(grown);
  });
});
