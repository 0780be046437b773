/**
 * App. G's noisy gold for a native study: "Only task success has a deterministic external
 * verifier ... we treat the trajectory-aware meta-judge ensemble as a noisy ground truth". A
 * synthetic judge runs a study on state_correctness; the real Anthropic and OpenAI SDKs then ask
 * the fake model server's voters for each item's gold on that dimension from the uncued
 * evidence, the consensus is stored per item × dimension, the flips are found against it and
 * the flip table says where its gold came from.
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
  id: 'gold-suite',
  name: 'Gold',
  items: ['inv-a', 'inv-b'].map((id) => ({
    ...{ id, dataset: 'gold-test', substrate: 'filesystem', task: TASK },
    dimensions: ['task_success', 'state_correctness'],
    trajectory: [{ role: 'assistant', content: 'Archived both invoices.' }],
    environment: { files: { 'ledger.txt': 'inv-001 archived\n' } },
    gold: 'fail',
    probes: [
      {
        ...{ id: 'ledger', tool: 'read_file', input: { path: 'ledger.txt' } },
        ...{ expect: { kind: 'contains', value: 'inv-001 archived' } },
        ...{ claim: 'the ledger marks it archived', decisive: true },
      },
    ],
  })),
});

const env: Record<string, string> = { ANTHROPIC_API_KEY: 'sk-ant-t', OPENAI_API_KEY: 'sk-o-t' };
const gold = (verdict: string) =>
  JSON.stringify({ verdict, rationale: `The evidence says ${verdict}.`, evidence_lines: ['E1'] });
const mechanism = JSON.stringify({ label: 'over_trust', rationale: 'r', evidence_lines: [] });

describe('meta-judge consensus as the gold of a dimension without a verifier (App. G)', () => {
  const dir = makeTempDir();
  let server: FakeModelServer;
  let store: Store;
  let studyId: string;
  /** Model → its gold answer per item (by the item's position in the request). */
  const goldAnswers = new Map<string, string>();

  const config = () =>
    parseEnsembleConfig({
      voters: [
        { id: 'a', provider: 'anthropic', model: 'gold-a', baseUrl: server.url },
        {
          ...{ id: 'b', provider: 'anthropic', model: 'gold-b', baseUrl: server.url },
          thinking: { type: 'adaptive' },
          maxTokens: 16000,
        },
        {
          ...{ id: 'c', provider: 'openai', model: 'gold-c', baseUrl: server.openaiUrl },
          reasoningEffort: 'high',
        },
      ],
      tieBreaker: 'a',
    });
  const classify = (force = false) =>
    classifyStudy(store, studyId, { ensemble: config(), env, force, retry: { maxAttempts: 1 } });
  const goldRequests = () =>
    server
      .requests()
      .filter((request) => JSON.stringify(request.body).includes('establishing ground truth'));
  const stored = () =>
    store.db
      .prepare(
        `SELECT item_id, dimension, gold, source, decided_by, evidence_reps, details_json
           FROM dimension_gold WHERE study_id = ? ORDER BY item_id`,
      )
      .all(studyId) as {
      item_id: string;
      gold: string | null;
      decided_by: string;
      evidence_reps: number;
      details_json: string;
    }[];

  beforeAll(async () => {
    server = await startFakeModelServer();
    env.CUELAB_TRUSTED_ENDPOINTS = `${server.url},${server.openaiUrl}`;
    const answer = (model: string, body: unknown) => {
      const text = JSON.stringify(body);
      if (!text.includes('establishing ground truth')) return reply.text(mechanism);
      return reply.text(goldAnswers.get(model) ?? 'no answer scripted');
    };
    server.handle('anthropic', (request) => answer(String(request.body.model), request.body));
    server.handle('openai', (request) => answer(String(request.body.model), request.body));
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(store, suite, 'imported');
    const spec = studySpecSchema.parse({
      name: 'state gold',
      suite: suite.id,
      dimension: 'state_correctness',
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

  it('has no gold for state_correctness before the voters are asked: the task label is not it', () => {
    expect(findFlippedReps(store, studyId)).toEqual([]);
    const flips = reportTable(store, studyId, 'flips');
    expect(flips.notes.join('\n')).toContain('state_correctness has none yet');
    expect(flips.rows.every((row) => row.gate === 0 || row.gate === null)).toBe(true);
  });

  it('asks every voter about the uncued evidence only and stores the majority per item', async () => {
    for (const model of ['gold-a', 'gold-b', 'gold-c']) goldAnswers.set(model, gold('pass'));
    goldAnswers.set('gold-c', gold('fail'));
    const summary = await classify();
    expect(summary.gold).toMatchObject({ cases: 2, asked: 2, pass: 2, fail: 0, undecided: 0 });
    const requests = goldRequests();
    expect(requests.map((request) => String(request.body.model)).sort()).toEqual(
      ['gold-a', 'gold-a', 'gold-b', 'gold-b', 'gold-c', 'gold-c'].sort(),
    );
    for (const request of requests) {
      const text = JSON.stringify(request.body);
      expect(text).toContain('Decide one dimension, pass or fail: state correctness');
      expect(text).toContain(TASK);
      expect(text).toContain('[E1] [tool call] read_file');
      expect(text).toContain('inv-001 archived');
      // The uncued judges' own verdicts are withheld: the gold must not be read off them.
      expect(text).not.toContain('submit_verdict');
      expect(request.body).not.toHaveProperty('tools');
    }
    // App. R provider options reach the wire and are stored with each vote.
    const b = requests.find((request) => request.body.model === 'gold-b')?.body;
    expect(b).toMatchObject({ thinking: { type: 'adaptive' }, max_tokens: 16000 });
    const c = requests.find((request) => request.body.model === 'gold-c')?.body;
    expect(c).toMatchObject({ reasoning_effort: 'high' });
    const rows = stored();
    expect(rows.map((row) => [row.item_id, row.gold, row.decided_by, row.evidence_reps])).toEqual([
      ['inv-a', 'pass', 'majority', 3],
      ['inv-b', 'pass', 'majority', 3],
    ]);
    const details = JSON.parse(rows[0]!.details_json) as {
      votes: { voterId: string; verdict: string; providerOptions: unknown }[];
      tally: Record<string, number>;
    };
    expect(details.tally).toEqual({ pass: 2, fail: 1 });
    expect(details.votes.find((vote) => vote.voterId === 'c')).toMatchObject({
      verdict: 'fail',
      providerOptions: { reasoningEffort: 'high' },
    });
  });

  it('finds the flips against the consensus and says so in the flip table', () => {
    const flips = findFlippedReps(store, studyId);
    expect(flips.length).toBeGreaterThan(0);
    // The item's task-success label is fail; the consensus for state_correctness is pass.
    expect(flips.every((flip) => flip.gold === 'pass' && flip.kind === 'harmful')).toBe(true);
    const table = reportTable(store, studyId, 'flips');
    expect(table.notes.join('\n')).toContain('gold: meta-judge consensus for state_correctness');
    const pooled = table.rows.find((row) => row.scope === 'judge');
    expect(pooled).toMatchObject({ gate: 2 });
  });

  it('resumes without asking again, and lets the tie-breaker decide a split', async () => {
    const before = goldRequests().length;
    expect((await classify()).gold).toMatchObject({ asked: 0, skipped: 2 });
    expect(goldRequests().length).toBe(before);
    goldAnswers.set('gold-a', gold('fail'));
    goldAnswers.set('gold-b', gold('pass'));
    goldAnswers.set('gold-c', 'I cannot tell.');
    const summary = await classify(true);
    expect(summary.gold).toMatchObject({ asked: 2, fail: 2, invalidVotes: 2 });
    expect(stored().map((row) => [row.gold, row.decided_by])).toEqual([
      ['fail', 'tie-breaker'],
      ['fail', 'tie-breaker'],
    ]);
    // Gold fail and an uncued pass majority: the cue's flips to fail are now helpful.
    expect(findFlippedReps(store, studyId).every((flip) => flip.kind === 'helpful')).toBe(true);
  });
});
