import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/main/engine/errors';
import { type Store, openStore } from '../../src/main/engine/store';
import { insertBundleRows, readBundleTables } from '../../src/main/engine/store/faces/bundles';
import {
  cuedBinaryReps,
  listReps,
  loadJudgeRep,
  readStoredRep,
  repMessages,
  repOrigin,
  repSimulationRecord,
  repToolCalls,
  studyStoredReps,
  uncuedReps,
} from '../../src/main/engine/store/faces/reps';
import { insertStudyRows } from '../../src/main/engine/store/faces/studies';
import { listSuiteItems, suiteItemGold } from '../../src/main/engine/store/faces/suites';
import { studySpecSchema } from '../../src/shared/study-spec';
import { insertMiniSuiteRow } from '../helpers/mini-suite-row';
import { makeTempDir } from '../helpers/temp-dir';

// The store's rep, flip and bundle readers on a real SQLite file: rows come back
// typed with their JSON parsed, and a damaged JSON column names its table, row and field.
let folder: ReturnType<typeof makeTempDir>;
let store: Store;

beforeEach(() => {
  folder = makeTempDir('cuelab-store-reps-');
  store = openStore(join(folder.path, 'workspace.sqlite'));
  insertMiniSuiteRow(store);
  insertStudyRows(store, {
    id: 'study-1',
    spec: studySpecSchema.parse({
      name: 'reps',
      suite: 'mini',
      judges: [{ id: 'judge', provider: 'anthropic', model: 'claude-sonnet-4-6' }],
      reps: 1,
    }),
    simulated: true,
    now: '2026-01-01T00:00:00.000Z',
    items: [{ id: 'item', dataset: 'mini', gold: 'pass' }],
    conditions: [
      { key: 'uncued', label: 'uncued', cue: null, placement: null, mitigations: [] },
      {
        key: 'preset:strong@system',
        label: 'strong',
        cue: { kind: 'preset', preset: 'strong' },
        placement: 'system',
        mitigations: [],
      },
    ],
  });
});

afterEach(() => {
  store.close();
  folder.remove();
});

/** Stores a rep (with its done job) the way the runner leaves one. */
function addRep(id: string, key: string, direction: string, outcome: 'pass' | 'fail'): void {
  store.db
    .prepare(
      `INSERT INTO judge_reps (id, study_id, suite_id, item_id, provider, model, simulated,
         condition_json, outcome, final_verdict_json, system_prompt, tools_json, simulation_json, created_at)
       VALUES (?, 'study-1', 'mini', 'item', 'synthetic', 'persona', 1, ?, 'verdict', ?, 'You judge.', '[]', ?, ?)`,
    )
    .run(
      id,
      JSON.stringify({
        dimension: 'task_success',
        cueText: 'x',
        direction: direction || undefined,
      }),
      JSON.stringify({ kind: 'binary', outcome, rationale: 'because' }),
      JSON.stringify({ mechanism: 'over_trust' }),
      `2026-01-01T00:00:0${id.length % 10}.000Z`,
    );
  store.db
    .prepare(
      `INSERT INTO jobs (study_id, condition_key, item_id, judge_id, rep, direction, state, rep_id, created_at)
       VALUES ('study-1', ?, 'item', 'judge', 1, ?, 'done', ?, '2026-01-01')`,
    )
    .run(key, direction, id);
  store.db
    .prepare(
      `INSERT INTO judge_messages (rep_id, seq, role, content, tool_calls_json, tool_call_id, tool_name, is_error)
       VALUES (?, 0, 'user', 'Judge this.', NULL, NULL, NULL, 0),
              (?, 1, 'assistant', 'Looking.', '[{"id":"c1","name":"bash","input":{"command":"ls"}}]', NULL, NULL, 0),
              (?, 2, 'tool', 'a.txt', NULL, 'c1', 'bash', 0)`,
    )
    .run(id, id, id);
  store.db
    .prepare(
      `INSERT INTO judge_tool_calls (rep_id, seq, turn, call_id, name, input_json, output, is_error,
         duration_ms, result_number, stop_directive)
       VALUES (?, 0, 0, 'c1', 'bash', '{"command":"ls"}', 'a.txt', 0, 5, 1, 0)`,
    )
    .run(id);
}

function damagedMessage(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('store_unreadable');
    return (error as Error).message;
  }
  throw new Error('expected a store_unreadable error');
}

describe('rep transcripts', () => {
  it('reads a rep, its messages and its tool calls with their JSON parsed', () => {
    addRep('rep-1', 'uncued', '', 'pass');
    expect(repOrigin(store, 'rep-1')).toEqual({
      studyId: 'study-1',
      suiteId: 'mini',
      itemId: 'item',
    });
    expect(repOrigin(store, 'missing')).toBeUndefined();
    const rep = readStoredRep(store, 'rep-1');
    expect(rep?.finalVerdict).toEqual({ kind: 'binary', outcome: 'pass', rationale: 'because' });
    expect(rep?.verdict).toBeNull();
    expect(rep?.condition).toEqual({ dimension: 'task_success', cueText: 'x' });
    expect(rep?.simulated).toBe(true);
    expect(studyStoredReps(store, 'study-1').map((entry) => entry.id)).toEqual(['rep-1']);
    expect(repMessages(store, 'rep-1').map((message) => message.toolCalls)).toEqual([
      [],
      [{ id: 'c1', name: 'bash', input: { command: 'ls' } }],
      [],
    ]);
    expect(repMessages(store, 'rep-1')[2]).toMatchObject({ toolName: 'bash', toolCallId: 'c1' });
    expect(repToolCalls(store, 'rep-1')).toEqual([
      { seq: 0, name: 'bash', input: { command: 'ls' }, output: 'a.txt', isError: false },
    ]);
    expect(repSimulationRecord(store, 'rep-1')).toEqual({ mechanism: 'over_trust' });
  });

  it('names the rep and column when a JSON column is damaged', () => {
    addRep('rep-1', 'uncued', '', 'pass');
    store.db.prepare(`UPDATE judge_reps SET condition_json = '{oops' WHERE id = 'rep-1'`).run();
    expect(damagedMessage(() => readStoredRep(store, 'rep-1'))).toContain(
      'judge_reps row rep-1: condition_json: not valid JSON',
    );
    store.db.prepare(`UPDATE judge_reps SET simulation_json = '7' WHERE id = 'rep-1'`).run();
    expect(damagedMessage(() => repSimulationRecord(store, 'rep-1'))).toContain(
      'judge_reps row rep-1: simulation_json: expected a JSON object',
    );
    store.db
      .prepare(`UPDATE judge_messages SET tool_calls_json = '[{"id": 1}]' WHERE seq = 1`)
      .run();
    expect(damagedMessage(() => repMessages(store, 'rep-1'))).toContain(
      'judge_messages row rep-1/1: tool_calls_json',
    );
    store.db.prepare(`UPDATE judge_tool_calls SET input_json = '{' WHERE seq = 0`).run();
    expect(damagedMessage(() => repToolCalls(store, 'rep-1'))).toContain(
      'judge_tool_calls row rep-1/0: input_json',
    );
  });

  it('reads an item’s gold, and names the item when its body is damaged', () => {
    store.db
      .prepare(
        `INSERT INTO suite_items (suite_id, item_id, body_json) VALUES ('mini', 'item', '{"gold": "fail"}')`,
      )
      .run();
    expect(suiteItemGold(store, 'mini', 'item')).toBe('fail');
    expect(suiteItemGold(store, 'mini', 'other')).toBeUndefined();
    store.db.prepare(`UPDATE suite_items SET body_json = 'null'`).run();
    expect(damagedMessage(() => suiteItemGold(store, 'mini', 'item'))).toContain(
      'suite_items row mini/item: body_json',
    );
  });
});

describe('the readers that were in store/ already', () => {
  it('name a damaged JSON column the same way', () => {
    addRep('rep-1', 'uncued', '', 'pass');
    expect(listReps(store, { studyId: 'study-1' }).map((rep) => rep.verdict)).toEqual(['pass']);
    store.db.prepare(`UPDATE judge_reps SET final_verdict_json = '{' WHERE id = 'rep-1'`).run();
    expect(damagedMessage(() => listReps(store, { studyId: 'study-1' }))).toContain(
      'judge_reps row rep-1: final_verdict_json',
    );
    store.db
      .prepare(
        `UPDATE judge_reps SET final_verdict_json = NULL, gate_json = '{' WHERE id = 'rep-1'`,
      )
      .run();
    expect(damagedMessage(() => loadJudgeRep(store, 'rep-1'))).toContain(
      'judge_reps row rep-1: gate_json',
    );
    store.db
      .prepare(
        `INSERT INTO suite_items (suite_id, item_id, body_json) VALUES ('mini', 'item', '{"id": 3}')`,
      )
      .run();
    expect(damagedMessage(() => listSuiteItems(store, 'mini'))).toContain(
      'suite_items row mini/item: body_json',
    );
  });
});

describe('flip rows', () => {
  it('reads cued binary reps with their majority and gold, and the uncued twins', () => {
    addRep('uncued-rep', 'uncued', '', 'pass');
    addRep('cued-rep', 'preset:strong@system', 'severity', 'fail');
    store.db
      .prepare(
        `INSERT INTO study_majorities (study_id, item_id, judge_id, dimension, majority, valid_reps)
         VALUES ('study-1', 'item', 'judge', 'task_success', 'pass', 1)`,
      )
      .run();
    expect(cuedBinaryReps(store, 'study-1')).toEqual([
      {
        repId: 'cued-rep',
        itemId: 'item',
        judgeId: 'judge',
        dataset: 'mini',
        conditionKey: 'preset:strong@system',
        direction: 'severity',
        rep: 1,
        dimension: 'task_success',
        gold: 'pass',
        majority: 'pass',
        verdict: 'fail',
        simulated: true,
      },
    ]);
    expect(cuedBinaryReps(store, 'study-1', 'item')).toHaveLength(1);
    expect(cuedBinaryReps(store, 'study-1', 'other')).toEqual([]);
    expect(uncuedReps(store, 'study-1')).toEqual([
      {
        repId: 'uncued-rep',
        itemId: 'item',
        judgeId: 'judge',
        conditionKey: 'uncued',
        rep: 1,
        verdict: 'pass',
      },
    ]);
    // A majority that is neither pass nor fail (a hand-edited file) is named, not passed on.
    store.db.prepare(`UPDATE study_majorities SET majority = 'yes'`).run();
    expect(damagedMessage(() => cuedBinaryReps(store, 'study-1'))).toContain(
      'study_majorities of rep cued-rep: majority',
    );
  });
});

describe('bundle rows', () => {
  it('reads every bundle table of a study and writes rows back column by column', () => {
    addRep('rep-1', 'uncued', '', 'pass');
    const tables = readBundleTables(store, 'study-1', null);
    expect(tables.studies.map((row) => row.id)).toEqual(['study-1']);
    expect(tables.reps.map((row) => row.id)).toEqual(['rep-1']);
    expect(tables.messages).toHaveLength(3);
    expect(tables.suites).toEqual([]);
    const [rowid] = insertBundleRows(store, 'suite_items', [
      { suite_id: 'mini', item_id: 'x', body_json: '{}' },
    ]);
    expect(rowid).toBeGreaterThan(0);
  });

  it('refuses a column the table lacks and a table bundles may not write', () => {
    expect(() =>
      insertBundleRows(store, 'suite_items', [{ suite_id: 'a', item_id: 'b', owner: 'me' }]),
    ).toThrow(/suite_items rows have a column "owner"/);
    expect(() => insertBundleRows(store, 'docker_hosts', [{ id: 'x' }])).toThrow(
      /may not write table "docker_hosts"/,
    );
  });
});
