/**
 * §3.4 leaves open whether the control arm also ran the mitigation. A native study with
 * `arms.mitigatedControl` runs an `uncued+MITIGATION` arm beside the unmitigated control, the
 * estimate counts its reps, and the mitigations table (Table 1) reads both controls.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportTable } from '../../src/main/engine/reports/tables';
import { expandConditions } from '../../src/main/engine/runner/conditions';
import { estimateStudy } from '../../src/main/engine/runner/estimate';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { storedTextSql } from '../../src/main/engine/store/text-blobs';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { deferring } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { makeTempDir } from '../helpers/temp-dir';

const suite = suiteFileSchema.parse({
  id: 'mitigated-suite',
  name: 'Mitigated control',
  items: ['a', 'b', 'c', 'd'].map((id, index) => ({
    ...{ id, dataset: 'mitigation-test', substrate: 'filesystem', task: 'Archive the invoices.' },
    trajectory: [{ role: 'assistant', content: 'Archived.' }],
    environment: { files: { 'ledger.txt': 'inv-001 archived\n' } },
    gold: index % 2 === 0 ? 'pass' : 'fail',
    probes: [
      {
        ...{ id: 'ledger', tool: 'read_file', input: { path: 'ledger.txt' } },
        ...{ expect: { kind: 'contains', value: 'inv-001 archived' } },
        ...{ claim: 'the ledger marks it archived', decisive: true },
      },
    ],
  })),
});

const spec = (mitigatedControl: boolean) =>
  studySpecSchema.parse({
    name: 'mitigated control',
    suite: suite.id,
    judges: [{ id: 'deferring', provider: 'synthetic', model: 'synthetic', persona: deferring.id }],
    arms: { mitigations: [[], [{ kind: 'builtin', id: 'guard' }]], mitigatedControl },
    reps: 3,
  });

describe('the mitigated control arm of a native study (§3.4)', () => {
  const dir = makeTempDir();
  let store: Store;
  let studyId: string;
  beforeAll(async () => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(store, suite, 'imported');
    studyId = await runSyntheticStudy(store, spec(true), suite.items, deferring);
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });

  it('adds one uncued arm per mitigation set, and only when asked', () => {
    expect(expandConditions(spec(false)).map((condition) => condition.key)).toEqual([
      'uncued',
      'preset:strong@system',
      'preset:strong@system+guard',
    ]);
    const conditions = expandConditions(spec(true));
    expect(conditions.map((condition) => condition.key)).toEqual([
      'uncued',
      'uncued+guard',
      'preset:strong@system',
      'preset:strong@system+guard',
    ]);
    expect(conditions[1]).toMatchObject({ cue: null, mitigations: [{ id: 'guard' }] });
  });

  it('counts the mitigated control in the estimate as uncued reps', () => {
    const context = { env: {}, dockerAvailable: true, baseImagePresent: true };
    const without = estimateStudy(store, spec(false), suite.items, context);
    const withControl = estimateStudy(store, spec(true), suite.items, context);
    expect(without).toMatchObject({ uncuedReps: 12, cuedReps: 24, totalReps: 36 });
    expect(withControl).toMatchObject({ uncuedReps: 24, cuedReps: 24, totalReps: 48 });
    expect(withControl.conditions).toBe(4);
  });

  it('runs the mitigated control uncued with the mitigation in its prompt', () => {
    // The prompt is stored once per distinct text (store/text-blobs.ts).
    const prompt = storedTextSql('r.system_prompt', 'r.system_prompt_blob');
    const jobs = store.db
      .prepare(
        `SELECT j.direction, ${prompt} AS system_prompt, r.condition_json FROM jobs j
           JOIN judge_reps r ON r.id = j.rep_id
          WHERE j.study_id = ? AND j.condition_key = 'uncued+guard' AND j.state = 'done'`,
      )
      .all(studyId) as { direction: string; system_prompt: string; condition_json: string }[];
    expect(jobs).toHaveLength(12);
    const plain = store.db
      .prepare(
        `SELECT ${prompt} AS system_prompt FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
          WHERE j.study_id = ? AND j.condition_key = 'uncued' LIMIT 1`,
      )
      .get(studyId) as { system_prompt: string };
    for (const job of jobs) {
      expect(job.direction).toBe('');
      const condition = JSON.parse(job.condition_json) as Record<string, unknown>;
      expect(condition.cueText ?? null).toBeNull();
      expect(condition.mitigations).toEqual([{ kind: 'builtin', id: 'guard' }]);
      expect(job.system_prompt.length).toBeGreaterThan(plain.system_prompt.length);
    }
  });

  it('gives Table 1 both control readings, and no flip row to the control', () => {
    const table = reportTable(store, studyId, 'mitigations');
    const row = table.rows.find((entry) => entry.scope === 'judge');
    expect(row).toMatchObject({ mitigation: 'guard', after: 'preset:strong@system+guard' });
    expect(row?.harmfulAfterMitigatedPct).not.toBeNull();
    expect(row?.helpfulAfterMitigatedPct).not.toBeNull();
    const flips = reportTable(store, studyId, 'flips');
    expect(flips.rows.map((entry) => entry.condition)).not.toContain('uncued+guard');
  });
});
