/**
 * One study over several dimensions (App. G: the mechanism analysis "spans up to eight
 * evaluation dimensions"; App. H: every judge over the same pool across all of them), so Fig. 17
 * (mechanisms by dimension, App. I) comes from a single study: each dimension gets its own
 * control, uncued majority and cued arms, and the mechanism table has a row per dimension.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyStudy } from '../../src/main/engine/metajudge/classify-study';
import { findFlippedReps } from '../../src/main/engine/metajudge/flipped';
import { reportTable } from '../../src/main/engine/reports/tables';
import { expandConditions } from '../../src/main/engine/runner/conditions';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { deferring } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { makeTempDir } from '../helpers/temp-dir';

const suite = suiteFileSchema.parse({
  id: 'dimensions-suite',
  name: 'Dimensions',
  items: ['a', 'b'].map((id) => ({
    ...{ id, dataset: 'dimension-test', substrate: 'filesystem', task: 'Archive the invoices.' },
    dimensions: ['task_success', 'state_correctness', 'completeness'],
    trajectory: [{ role: 'assistant', content: 'Archived.' }],
    environment: { files: { 'ledger.txt': 'inv-001 archived\n' } },
    gold: 'pass',
    probes: [
      {
        ...{ id: 'ledger', tool: 'read_file', input: { path: 'ledger.txt' } },
        ...{ expect: { kind: 'contains', value: 'inv-001 archived' } },
        ...{ claim: 'the ledger marks it archived', decisive: true },
      },
    ],
  })),
});

const spec = studySpecSchema.parse({
  name: 'two dimensions',
  suite: suite.id,
  dimensions: ['task_success', 'state_correctness', 'completeness'],
  judges: [{ id: 'deferring', provider: 'synthetic', model: 'synthetic', persona: deferring.id }],
  reps: 3,
});

describe('one study over several dimensions (App. G, Fig. 17)', () => {
  const dir = makeTempDir();
  let store: Store;
  let studyId: string;
  beforeAll(async () => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(store, suite, 'imported');
    studyId = await runSyntheticStudy(store, spec, suite.items, deferring);
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });

  it('gives each dimension its own control and arms', () => {
    expect(expandConditions(spec).map((condition) => condition.key)).toEqual([
      'uncued',
      'preset:strong@system',
      'uncued#state_correctness',
      'preset:strong@system#state_correctness',
      'uncued#completeness',
      'preset:strong@system#completeness',
    ]);
    const jobs = store.db
      .prepare(
        `SELECT j.condition_key AS key, json_extract(r.condition_json, '$.dimension') AS dimension,
                count(*) AS n FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
          WHERE j.study_id = ? GROUP BY 1, 2 ORDER BY 1`,
      )
      .all(studyId);
    expect(jobs).toEqual([
      { key: 'preset:strong@system', dimension: 'task_success', n: 6 },
      { key: 'preset:strong@system#completeness', dimension: 'completeness', n: 6 },
      { key: 'preset:strong@system#state_correctness', dimension: 'state_correctness', n: 6 },
      { key: 'uncued', dimension: 'task_success', n: 6 },
      { key: 'uncued#completeness', dimension: 'completeness', n: 6 },
      { key: 'uncued#state_correctness', dimension: 'state_correctness', n: 6 },
    ]);
  });

  it('fixes an uncued majority (or mean) per item, judge and dimension', () => {
    const majorities = store.db
      .prepare(
        `SELECT item_id, dimension, majority, mean_score IS NOT NULL AS graded
           FROM study_majorities WHERE study_id = ? ORDER BY item_id, dimension`,
      )
      .all(studyId);
    expect(majorities).toEqual([
      { item_id: 'a', dimension: 'completeness', majority: null, graded: 1 },
      { item_id: 'a', dimension: 'state_correctness', majority: 'pass', graded: 0 },
      { item_id: 'a', dimension: 'task_success', majority: 'pass', graded: 0 },
      { item_id: 'b', dimension: 'completeness', majority: null, graded: 1 },
      { item_id: 'b', dimension: 'state_correctness', majority: 'pass', graded: 0 },
      { item_id: 'b', dimension: 'task_success', majority: 'pass', graded: 0 },
    ]);
  });

  it('pairs each dimension with its own control in the tables', () => {
    const flips = reportTable(store, studyId, 'flips');
    const conditions = new Set(flips.rows.map((row) => row.condition));
    expect(conditions).toEqual(new Set(['preset:strong@system']));
    const graded = reportTable(store, studyId, 'graded');
    expect(graded.rows.some((row) => row.dimension === 'completeness')).toBe(true);
    // Before its gold exists, state_correctness has no flips (App. G: no verifier).
    expect(findFlippedReps(store, studyId).every((flip) => flip.dimension === 'task_success')).toBe(
      true,
    );
  });

  it('labels mechanisms by dimension from the one study', async () => {
    // state_correctness has no verifier: its gold is the stored meta-judge consensus (App. G;
    // derived through the SDKs in metajudge-consensus-gold.test.ts), here pass for both items.
    const gold = store.db.prepare(
      `INSERT INTO dimension_gold (study_id, item_id, dimension, gold, source, decided_by,
         evidence_reps, created_at) VALUES (?, ?, 'state_correctness', 'pass',
         'meta-judge consensus', 'majority', 3, ?)`,
    );
    for (const item of ['a', 'b']) gold.run(studyId, item, new Date().toISOString());
    const dimensions = new Set(findFlippedReps(store, studyId).map((flip) => flip.dimension));
    expect(dimensions).toEqual(new Set(['task_success', 'state_correctness']));
    await classifyStudy(store, studyId);
    const table = reportTable(store, studyId, 'mechanisms');
    const pooled = table.rows.filter((row) => row.judge === 'all' && row.labels === 'diff');
    expect(pooled.map((row) => [row.dimension, row.n]).sort()).toEqual([
      ['state_correctness', 6],
      ['task_success', 6],
    ]);
  });
});
