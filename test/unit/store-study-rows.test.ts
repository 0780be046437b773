import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/main/engine/errors';
import { type Store, openStore } from '../../src/main/engine/store';
import { insertJob, providerCallLog } from '../../src/main/engine/store/faces/jobs';
import { modelRepHistory } from '../../src/main/engine/store/faces/machine';
import { readDimensionGold, saveDimensionGold } from '../../src/main/engine/store/faces/reps';
import {
  insertStudyRows,
  latestStudyId,
  matchingStudyIds,
  readStudyDefinition,
  readStudySpecRecord,
  saveImportedStudy,
  studyIsSimulated,
} from '../../src/main/engine/store/faces/studies';
import { storedBuiltinVersion } from '../../src/main/engine/store/faces/suites';
import type { ModelResponse } from '../../src/main/engine/providers';
import { studySpecSchema } from '../../src/shared/study-spec';
import { insertMiniSuiteRow } from '../helpers/mini-suite-row';
import { makeTempDir } from '../helpers/temp-dir';

// The store's study, provider-call and gold readers on a real SQLite file: what is written
// comes back typed, and a damaged row is an error naming its table, row and field.
let folder: ReturnType<typeof makeTempDir>;
let store: Store;

beforeEach(() => {
  folder = makeTempDir('cuelab-store-rows-');
  store = openStore(join(folder.path, 'workspace.sqlite'));
});

afterEach(() => {
  store.close();
  folder.remove();
});

const spec = studySpecSchema.parse({
  name: 'store rows',
  suite: 'mini',
  judges: [{ id: 'judge', provider: 'anthropic', model: 'claude-sonnet-4-6' }],
  reps: 1,
});

const uncued = {
  key: 'uncued',
  label: 'uncued (control)',
  cue: null,
  placement: null,
  mitigations: [],
};
const cued = {
  key: 'preset:strong@system',
  label: 'strong @ system',
  cue: { kind: 'preset' as const, preset: 'strong' },
  placement: 'system',
  mitigations: [],
};

function addStudy(id: string, createdAt = '2026-01-01T00:00:00.000Z'): void {
  insertStudyRows(store, {
    id,
    spec,
    simulated: true,
    now: createdAt,
    items: [
      { id: 'b-item', dataset: 'mini', gold: 'pass' },
      { id: 'a-item', dataset: 'mini' },
    ],
    conditions: [uncued, cued],
  });
}

/** Expects `work` to throw a store_unreadable EngineError whose message has every part. */
function expectDamaged(work: () => unknown, ...parts: string[]): void {
  let caught: unknown;
  try {
    work();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(EngineError);
  expect((caught as EngineError).code).toBe('store_unreadable');
  for (const part of parts) expect((caught as EngineError).message).toContain(part);
}

describe('study rows', () => {
  it('reads back a study with its conditions and items in position order', () => {
    addStudy('study-1');
    const stored = readStudyDefinition(store, 'study-1');
    expect(stored?.spec).toEqual(spec);
    expect(stored?.conditions).toEqual([uncued, cued]);
    expect(stored?.itemIds).toEqual(['b-item', 'a-item']);
    expect(readStudyDefinition(store, 'missing')).toBeUndefined();
    expect(studyIsSimulated(store, 'study-1')).toBe(true);
    expect(studyIsSimulated(store, 'missing')).toBe(false);
  });

  it('resolves the latest study and id prefixes', () => {
    expect(latestStudyId(store)).toBeUndefined();
    addStudy('abc-1', '2026-01-01T00:00:00.000Z');
    addStudy('abd-2', '2026-01-02T00:00:00.000Z');
    expect(latestStudyId(store)).toBe('abd-2');
    expect(matchingStudyIds(store, 'abc')).toEqual(['abc-1']);
    expect(matchingStudyIds(store, 'ab').sort()).toEqual(['abc-1', 'abd-2']);
    expect(matchingStudyIds(store, 'store rows').length).toBe(2);
  });

  it('names the study row when its spec is not JSON or not a spec', () => {
    addStudy('study-1');
    store.db.prepare("UPDATE studies SET spec_json = '{not json' WHERE id = 'study-1'").run();
    expectDamaged(() => readStudyDefinition(store, 'study-1'), 'studies row study-1', 'spec_json');
    expectDamaged(() => readStudySpecRecord(store, 'study-1'), 'not valid JSON');
    store.db.prepare(`UPDATE studies SET spec_json = '{"name": 5}' WHERE id = 'study-1'`).run();
    expectDamaged(() => readStudyDefinition(store, 'study-1'), 'studies row study-1: spec_json');
    store.db.prepare(`UPDATE studies SET spec_json = '[1]' WHERE id = 'study-1'`).run();
    expectDamaged(() => readStudySpecRecord(store, 'study-1'), 'expected a JSON object');
  });

  it('names the condition row and field when a condition body has the wrong shape', () => {
    addStudy('study-1');
    store.db
      .prepare(
        `UPDATE study_conditions SET body_json = '{"key": "uncued", "label": "x", "cue": null, "placement": null, "mitigations": "none"}'
          WHERE study_id = 'study-1' AND key = 'uncued'`,
      )
      .run();
    expectDamaged(
      () => readStudyDefinition(store, 'study-1'),
      'study_conditions row study-1/uncued',
      'body_json: mitigations',
    );
  });

  it('stores an imported study whose spec reads back as a record', () => {
    saveImportedStudy(store, {
      id: 'imported-1',
      name: 'results.csv',
      spec: { kind: 'imported-results', gradedFlipThreshold: 12 },
      simulated: false,
      now: '2026-01-01T00:00:00.000Z',
      reps: [
        {
          line: 2,
          itemId: 'item',
          dataset: 'mini',
          judge: 'judge',
          condition: 'uncued',
          cueDirection: null,
          rep: 1,
          verdict: 'pass',
          score: null,
          gold: 'pass',
          dimension: 'task_success',
          turns: 3,
          extra: { note: 'kept' },
        },
      ],
    });
    expect(readStudySpecRecord(store, 'imported-1')).toEqual({
      kind: 'imported-results',
      gradedFlipThreshold: 12,
    });
    const extra = store.db
      .prepare("SELECT extra_json FROM imported_reps WHERE study_id = 'imported-1'")
      .pluck()
      .get();
    expect(extra).toBe('{"note":"kept"}');
  });
});

describe('suite settings', () => {
  it('names the suite row when its settings are not an object', () => {
    insertMiniSuiteRow(store, '{"builtinVersion": "abc"}');
    expect(storedBuiltinVersion(store, 'mini')).toBe('abc');
    expect(storedBuiltinVersion(store, 'other')).toBeUndefined();
    store.db.prepare(`UPDATE suites SET settings_json = '"abc"' WHERE id = 'mini'`).run();
    expectDamaged(() => storedBuiltinVersion(store, 'mini'), 'suites row mini: settings_json');
  });
});

describe('provider calls', () => {
  const response: ModelResponse = {
    text: 'hello',
    toolCalls: [{ id: 'call-1', name: 'bash', input: { command: 'ls' } }],
    stopReason: 'tool_use',
    usage: { inputTokens: 10, outputTokens: 2 },
    model: 'persona',
    reasoningBlocks: [{ type: 'thinking', signature: 'kept as sent' }],
  };

  function addJob(): number {
    addStudy('study-1');
    insertJob(store, {
      studyId: 'study-1',
      conditionKey: 'uncued',
      itemId: 'a-item',
      judgeId: 'judge',
      rep: 1,
      direction: '',
    });
    return store.db.prepare('SELECT id FROM jobs').pluck().get() as number;
  }

  it('stores, finds and drops a job’s calls', () => {
    const log = providerCallLog(store, addJob());
    expect(log.find(0)).toBeUndefined();
    log.save(0, { requestHash: 'h0', response, attempts: 2, temperatureSent: true });
    log.save(1, { requestHash: 'h1', response, attempts: 1, temperatureSent: false });
    expect(log.find(0)).toEqual({
      requestHash: 'h0',
      response,
      attempts: 2,
      temperatureSent: true,
    });
    log.dropFrom(1);
    expect(log.find(1)).toBeUndefined();
    expect(log.find(0)?.requestHash).toBe('h0');
  });

  it('names the call when a stored response is not a model response', () => {
    const jobId = addJob();
    const log = providerCallLog(store, jobId);
    log.save(0, { requestHash: 'h0', response, attempts: 1, temperatureSent: false });
    store.db.prepare(`UPDATE provider_calls SET response_json = '{"text": "x"}'`).run();
    expectDamaged(() => log.find(0), `provider_calls row ${jobId}/0`, 'response_json');
    store.db.prepare(`UPDATE provider_calls SET response_json = 'nope'`).run();
    expectDamaged(() => log.find(0), 'not valid JSON');
  });
});

describe('dimension gold and model history', () => {
  it('round-trips a gold and refuses an outcome that is neither pass nor fail', () => {
    addStudy('study-1');
    saveDimensionGold(store, {
      studyId: 'study-1',
      itemId: 'a-item',
      dimension: 'state_correctness',
      gold: 'fail',
      source: 'meta-judge consensus',
      decidedBy: 'majority',
      evidenceReps: 3,
      details: { tally: { pass: 1, fail: 2 } },
    });
    expect(readDimensionGold(store, 'study-1')).toEqual([
      { itemId: 'a-item', dimension: 'state_correctness', gold: 'fail' },
    ]);
    // The column's CHECK keeps a bad gold out of a healthy file; a hand-edited one has none.
    store.db.pragma('ignore_check_constraints = ON');
    store.db.prepare(`UPDATE dimension_gold SET gold = 'maybe'`).run();
    expectDamaged(
      () => readDimensionGold(store, 'study-1'),
      'dimension_gold row study-1/a-item/state_correctness: gold',
    );
  });

  it('reports no history for a model never run', () => {
    expect(modelRepHistory(store, 'never')).toEqual({
      reps: 0,
      inputTokens: null,
      outputTokens: null,
      durationMs: null,
      turns: null,
    });
  });
});
