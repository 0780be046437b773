/**
 * The done-job counter the report cache asks before every refresh (migration 0009, store
 * `doneJobCount`) on a real SQLite workspace: it equals a count of the study's done jobs
 * through inserts, state changes both ways, deletions and the study's removal.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { doneJobCount } from '../../src/main/engine/store/analysis-rows';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { seededRandom } from '../../src/main/engine/random';
import { makeTempDir } from '../helpers/temp-dir';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

const states = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

function counted(store: Store, studyId: string): number {
  const row = store.db
    .prepare<[string], { n: number }>(
      `SELECT count(*) AS n FROM jobs WHERE study_id = ? AND state = 'done'`,
    )
    .get(studyId);
  return row?.n ?? 0;
}

describe('the done-job counter', () => {
  it('follows every change to the jobs table', () => {
    const dir = makeTempDir();
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    cleanup = () => {
      store.close();
      dir.remove();
    };
    const stamp = '2026-05-01T00:00:00.000Z';
    for (const id of ['s1', 's2'])
      store.db
        .prepare(
          `INSERT INTO studies (id, name, status, spec_json, simulated, created_at, updated_at)
           VALUES (?, ?, 'running', '{}', 0, ?, ?)`,
        )
        .run(id, id, stamp, stamp);
    const insert = store.db.prepare(
      `INSERT INTO jobs (study_id, condition_key, item_id, judge_id, rep, direction, state, created_at)
       VALUES (?, 'uncued', ?, 'j', 1, '', ?, ?)`,
    );
    const random = seededRandom(3, 'done-jobs');
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    for (let item = 0; item < 60; item += 1)
      insert.run(pick(['s1', 's2']), `item-${item}`, pick(states), stamp);
    const check = () => {
      for (const id of ['s1', 's2']) expect(doneJobCount(store, id)).toBe(counted(store, id));
    };
    check();
    const ids = () =>
      store.db
        .prepare<[], { id: number }>('SELECT id FROM jobs')
        .all()
        .map((row) => row.id);
    for (let step = 0; step < 200; step += 1) {
      const id = pick(ids());
      const roll = random();
      if (roll < 0.7)
        store.db.prepare('UPDATE jobs SET state = ? WHERE id = ?').run(pick(states), id);
      else if (roll < 0.8)
        store.db.prepare('UPDATE jobs SET attempts = attempts + 1 WHERE id = ?').run(id);
      else if (roll < 0.9) store.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
      else insert.run(pick(['s1', 's2']), `item-new-${step}`, pick(states), stamp);
      check();
    }
    expect(doneJobCount(store, 's1')).toBeGreaterThan(0);
    store.db.prepare(`DELETE FROM studies WHERE id = 's1'`).run();
    expect(doneJobCount(store, 's1')).toBe(0);
    check();
  });
});
