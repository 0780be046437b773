/**
 * App. G end to end on a native study of a graded dimension: a synthetic judge scores
 * completeness 1–100 under a severity cue; the ensemble (real SDKs against the fake model
 * server) gives each item its consensus gold from the uncued evidence; the graded table then
 * gates the flips harmful against that gold, and every graded flip is a mechanism case, so
 * Fig. 17's graded cells come out of the mechanisms table.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyStudy } from '../../src/main/engine/metajudge/classify-study';
import { parseEnsembleConfig } from '../../src/main/engine/metajudge/ensemble/voters';
import { findFlippedReps } from '../../src/main/engine/metajudge/flipped';
import { reportTable } from '../../src/main/engine/reports/tables';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { deferring } from '../helpers/bundle-study';
import { runSyntheticStudy } from '../helpers/synthetic-study';
import { makeTempDir } from '../helpers/temp-dir';

const TASK = 'Archive the 2023 invoices and mark them archived in the ledger.';
const suite = suiteFileSchema.parse({
  id: 'graded-gold-suite',
  name: 'Graded gold',
  items: ['inv-a', 'inv-b', 'inv-c'].map((id) => ({
    ...{ id, dataset: 'gold-test', substrate: 'filesystem', task: TASK },
    dimensions: ['task_success', 'completeness'],
    trajectory: [{ role: 'assistant', content: 'Archived both invoices.' }],
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

const env: Record<string, string> = { ANTHROPIC_API_KEY: 'sk-ant-t' };
const gold = JSON.stringify({ verdict: 'pass', rationale: 'Complete.', evidence_lines: ['E1'] });
const mechanism = JSON.stringify({ label: 'over_trust', rationale: 'r', evidence_lines: [] });

describe('consensus gold and mechanism cases for a graded dimension (App. G, Fig. 17)', () => {
  const dir = makeTempDir();
  let server: FakeModelServer;
  let store: Store;
  let studyId: string;

  beforeAll(async () => {
    server = await startFakeModelServer();
    env.CUELAB_TRUSTED_ENDPOINTS = server.url;
    server.handle('anthropic', (request) =>
      reply.text(
        JSON.stringify(request.body).includes('establishing ground truth') ? gold : mechanism,
      ),
    );
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(store, suite, 'imported');
    const spec = studySpecSchema.parse({
      name: 'graded gold',
      suite: suite.id,
      dimension: 'completeness',
      judges: [
        { id: 'deferring', provider: 'synthetic', model: 'synthetic', persona: deferring.id },
      ],
      reps: 3,
    });
    studyId = await runSyntheticStudy(store, spec, suite.items, deferring);
  });
  afterAll(async () => {
    await server.close();
    store.close();
    dir.remove();
  });

  it('has graded flips but no gate before the consensus gold exists', () => {
    expect(findFlippedReps(store, studyId)).toEqual([]);
    const all = reportTable(store, studyId, 'graded').rows.find((row) => row.scope === 'all');
    expect(all).toMatchObject({ n: 3, gate: 0, wrong: 0, noGold: 3 });
    expect(Number(all?.flipped)).toBeGreaterThan(0);
  });

  it('asks the ensemble for the graded gold, gates the flips and classifies each one', async () => {
    const ensemble = parseEnsembleConfig({
      voters: ['a', 'b', 'c'].map((id) => ({
        ...{ id, provider: 'anthropic', model: `voter-${id}`, baseUrl: server.url },
      })),
      tieBreaker: 'a',
    });
    const summary = await classifyStudy(store, studyId, {
      ensemble,
      env,
      retry: { maxAttempts: 1 },
    });
    expect(summary.gold).toMatchObject({ cases: 3, asked: 3, pass: 3 });
    const graded = reportTable(store, studyId, 'graded');
    const all = graded.rows.find((row) => row.scope === 'all');
    // Gold pass and a severity cue: the cue points away from gold, every item is in the gate.
    expect(all).toMatchObject({ n: 3, gate: 3, wrong: 0, noGold: 0 });
    expect(all?.harmful).toBe(all?.flipped);
    expect(graded.simulated).toBe(true);

    const flips = findFlippedReps(store, studyId);
    expect(flips.length).toBe(Number(all?.flippedReps));
    expect(
      flips.every((flip) => flip.dimension === 'completeness' && flip.kind === 'harmful'),
    ).toBe(true);
    // The case reads the way the cue moved the score: from pass toward the severity cue's fail.
    expect(flips[0]).toMatchObject({ uncuedMajority: 'pass', cuedVerdict: 'fail', gold: 'pass' });
    const mechanisms = reportTable(store, studyId, 'mechanisms');
    expect(
      mechanisms.rows.find(
        (row) =>
          row.labels === 'ensemble' && row.judge === 'all' && row.dimension === 'completeness',
      ),
    ).toMatchObject({ n: flips.length, over_trust: 100 });
  });
});
