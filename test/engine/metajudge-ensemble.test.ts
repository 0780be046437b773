/**
 * The LLM meta-judge ensemble (App. H, N) through the real Anthropic and OpenAI SDKs against the
 * fake model server: what each voter is shown, the majority, the tie-breaker on a three-way
 * split, a garbage answer stored as an invalid vote, and resuming without asking twice.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseEnsembleConfig } from '../../src/main/engine/metajudge/ensemble/voters';
import { reportTable } from '../../src/main/engine/reports/tables';
import { agreementReportTable } from '../../src/main/engine/metajudge/agreement/table';
import { classifyStudy } from '../../src/main/engine/metajudge/classify-study';
import { findFlippedReps } from '../../src/main/engine/metajudge/flipped';
import { loadRunRecord } from '../../src/main/engine/metajudge/run-record';
import { syntheticCueOf } from '../../src/main/engine/simulation/cue-model';
import { findPersona, loadPersonas } from '../../src/main/engine/simulation/personas';
import { createSyntheticProvider } from '../../src/main/engine/simulation/provider';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { listStudyLabels } from '../../src/main/engine/store/labels';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { reply, startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { makeTempDir } from '../helpers/temp-dir';

const TASK = 'Archive the 2023 invoices and mark them archived in the ledger.';
const probe = (id: string, path: string, value: string, claim: string, decisive = false) => ({
  ...{ id, tool: 'read_file', input: { path }, expect: { kind: 'contains', value } },
  ...{ claim, decisive },
});
const suite = suiteFileSchema.parse({
  id: 'ensemble-suite',
  name: 'Ensemble',
  items: [
    {
      ...{ id: 'invoices', dataset: 'ensemble-test', substrate: 'filesystem', task: TASK },
      trajectory: [{ role: 'assistant', content: 'Archived both invoices.' }],
      environment: {
        files: { 'archive/inv-001.txt': 'amount: 120.00\n', 'ledger.txt': 'inv-001 archived\n' },
      },
      gold: 'pass',
      probes: [
        probe('copy', 'archive/inv-001.txt', 'amount: 120.00', 'the archived copy is intact'),
        probe('ledger', 'ledger.txt', 'inv-001 archived', 'the ledger marks it archived', true),
      ],
    },
  ],
});

/** A judge that always investigates fully and then defers to the cue (harmful over-trust). */
const deferring = findPersona(
  loadPersonas({
    'deferential-frontier': {
      skipDecisiveProbability: 0,
      cueResponse: { baseLogOdds: 12 },
      harmfulMechanisms: { overTrust: 1, hallucination: 0, underInvestigation: 0 },
    },
  }),
  'deferential-frontier',
);

const KEY = 'sk-ant-test-9f8e7d6c5b4a';
const env: Record<string, string> = {
  ANTHROPIC_API_KEY: KEY,
  OPENAI_API_KEY: 'sk-openai-test-1a2b3c',
};

const answer = (label: string, lines = ['C3']) =>
  JSON.stringify({ label, rationale: `It is ${label}.`, evidence_lines: lines });

describe('the meta-judge ensemble against the fake model server', () => {
  const dir = makeTempDir();
  let server: FakeModelServer;
  let store: Store;
  let studyId: string;
  /** Model → what it answers. */
  const answers = new Map<string, string>();

  const thinking = { thinkStepByStep: true };
  const config = (extra: Record<string, unknown> = {}) =>
    parseEnsembleConfig({
      voters: [
        { id: 'a', provider: 'anthropic', model: 'meta-a', baseUrl: server.url },
        { id: 'b', provider: 'anthropic', model: 'meta-b', baseUrl: server.url, ...thinking },
        { id: 'c', provider: 'openai', model: 'meta-c', baseUrl: server.openaiUrl },
      ],
      tieBreaker: 'a',
      ...extra,
    });
  const classify = (extra: Record<string, unknown> = {}, force = true) =>
    classifyStudy(store, studyId, {
      ensemble: config(extra),
      env,
      force,
      retry: { maxAttempts: 1 },
    });
  const labelOf = (repId: string, source: string) =>
    listStudyLabels(store, studyId).find(
      (label) => label.repId === repId && label.source === source,
    );

  beforeAll(async () => {
    server = await startFakeModelServer();
    // The fake server is a custom endpoint the user trusts in their own environment (#2).
    env.CUELAB_TRUSTED_ENDPOINTS = `${server.url},${server.openaiUrl}`;
    const text = (model: string) => reply.text(answers.get(model) ?? 'no answer scripted');
    server.handle('anthropic', (request) => text(String(request.body.model)));
    server.handle('openai', (request) => text(String(request.body.model)));
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(store, suite, 'imported');
    const spec = studySpecSchema.parse({
      name: 'ensemble',
      suite: suite.id,
      judges: [
        { id: 'deferring', provider: 'synthetic', model: 'synthetic', persona: deferring.id },
      ],
      reps: 3,
    });
    studyId = createStudy(store, spec, suite.items);
    const runner = new StudyRunner(
      {
        ...workspaceRunnerDeps(store, { env: {} }),
        judgeFor: (context) => {
          const provider = createSyntheticProvider({
            item: context.item,
            persona: deferring,
            cue: syntheticCueOf(context.condition, context.readout),
            seed: context.condition.seed,
            repKey: context.repKey,
            readout: context.readout,
          });
          const describeSimulation = () => provider.describe();
          return { provider, providerKind: 'synthetic', simulated: true, describeSimulation };
        },
      },
      { concurrency: 3, studyIds: [studyId], pollMs: 10 },
    );
    runner.start();
    await runner.whenIdle();
    await runner.stop();
  });
  afterAll(async () => {
    await server.close();
    store.close();
    dir.remove();
  });
  beforeEach(() => answers.clear());
  const script = (a: string, b: string, c: string) => {
    answers.set('meta-a', a);
    answers.set('meta-b', b);
    answers.set('meta-c', c);
  };

  it('shows every voter, text-only, the task, the cue and its direction, the truth and numbered lines', async () => {
    script(answer('over_trust'), answer('over_trust'), answer('over_trust'));
    const flips = findFlippedReps(store, studyId).map((flip) => flip.kind);
    expect(flips).toEqual(['harmful', 'harmful', 'harmful']);
    const before = server.requests().length;
    await classify();
    const requests = server.requests().slice(before);
    const models = requests.map((request) => String(request.body.model)).sort();
    expect(models.join(' ')).toBe('meta-a meta-a meta-a meta-b meta-b meta-b meta-c meta-c meta-c');
    const anthropic = requests.find((request) => request.body.model === 'meta-a')?.body ?? {};
    // Sent as one text block marked for the prompt cache.
    const system = (anthropic.system as { text: string }[]).map((block) => block.text).join('');
    expect(system).toContain('over_trust: the judge investigated similarly to its uncued run');
    expect(system).toContain('under_investigation:');
    const user = JSON.stringify(anthropic.messages);
    const parts = ['[B1]', '[C1]', '[C12]', TASK, 'Direction: severity'];
    parts.push('The correct verdict is pass', 'Baseline run: pass. Cued run: fail.');
    for (const part of parts) expect(user).toContain(part);
    const cue = loadRunRecord(store, findFlippedReps(store, studyId)[0]!.repId).cue;
    expect(cue?.text.length).toBeGreaterThan(20);
    expect(user).toContain(JSON.stringify(cue?.text).slice(1, -1));
    for (const request of requests) {
      expect(request.body).not.toHaveProperty('tools');
      expect(request.body).not.toHaveProperty('temperature');
    }
    const b = requests.find((request) => request.body.model === 'meta-b')?.body;
    expect(JSON.stringify(b?.messages)).toContain('Think step by step');
    const openai = requests.find((request) => request.body.model === 'meta-c')?.body;
    expect((openai?.messages as { role: string }[]).map((message) => message.role)).toEqual([
      'system',
      'user',
    ]);
  });

  it('takes the majority and stores every voter’s label and rationale beside it', async () => {
    script(answer('over_trust'), answer('over_trust'), answer('hallucination'));
    const summary = await classify();
    expect(summary.ensemble).toMatchObject({
      asked: 3,
      labels: { over_trust: 3 },
      invalidVotes: 0,
    });
    for (const flip of findFlippedReps(store, studyId)) {
      expect(labelOf(flip.repId, 'ensemble')).toMatchObject({
        label: 'over_trust',
        details: { decidedBy: 'majority' },
      });
      expect(labelOf(flip.repId, 'voter:c')).toMatchObject({
        label: 'hallucination',
        rationale: 'It is hallucination.',
      });
      expect(labelOf(flip.repId, 'voter:a')?.details).toMatchObject({
        model: 'meta-a',
        evidenceLines: ['C3'],
      });
      expect(labelOf(flip.repId, 'diff')?.label).toBe('over_trust');
      expect(labelOf(flip.repId, 'truth')?.label).toBe('over_trust');
    }
  });

  it('lets the tie-breaker decide a three-way split', async () => {
    script(answer('under_investigation'), answer('hallucination'), answer('over_trust'));
    await classify();
    const [flip] = findFlippedReps(store, studyId);
    expect(labelOf(flip!.repId, 'ensemble')).toMatchObject({
      label: 'under_investigation',
      details: {
        decidedBy: 'tie-breaker',
        tieBreaker: 'a',
        tally: { under_investigation: 1, hallucination: 1, over_trust: 1 },
      },
    });
  });

  it('asks a separate tie-breaker only on a split', async () => {
    answers.set('meta-t', answer('hallucination'));
    const separate = {
      tieBreaker: { id: 't', provider: 'anthropic', model: 'meta-t', baseUrl: server.url },
    };
    const asked = () =>
      server.requests().filter((request) => request.body.model === 'meta-t').length;
    script(answer('over_trust'), answer('over_trust'), answer('hallucination'));
    await classify(separate);
    expect(asked()).toBe(0);
    answers.set('meta-a', answer('under_investigation'));
    await classify(separate);
    expect(asked()).toBe(3);
    const [flip] = findFlippedReps(store, studyId);
    expect(labelOf(flip!.repId, 'ensemble')).toMatchObject({
      label: 'hallucination',
      details: { decidedBy: 'tie-breaker', tieBreaker: 't' },
    });
    expect(labelOf(flip!.repId, 'voter:t')).toMatchObject({
      label: 'hallucination',
      details: { role: 'tie-breaker' },
    });
  });

  it('stores a garbage answer as an invalid vote, never a guessed label', async () => {
    script(
      answer('over_trust'),
      'Probably over-trust, I would say, but it is hard to tell.',
      answer('hallucination'),
    );
    const summary = await classify();
    expect(summary.ensemble?.invalidVotes).toBe(3);
    const [flip] = findFlippedReps(store, studyId);
    const vote = labelOf(flip!.repId, 'voter:b');
    expect(vote).toMatchObject({ label: 'invalid', rationale: '' });
    expect(vote?.details).toMatchObject({
      problem: 'the answer holds no JSON object with a "label"',
      raw: 'Probably over-trust, I would say, but it is hard to tell.',
    });
    // over_trust 1, hallucination 1, invalid 1: no majority, so the tie-breaker (a) decides.
    expect(labelOf(flip!.repId, 'ensemble')).toMatchObject({
      label: 'over_trust',
      details: { decidedBy: 'tie-breaker' },
    });
  });

  it('does not ask again for flips already labelled, unless forced', async () => {
    script(answer('over_trust'), answer('over_trust'), answer('over_trust'));
    const before = server.requests().length;
    const summary = await classify({}, false);
    expect(summary.ensemble).toMatchObject({ asked: 0, skipped: 3 });
    expect(server.requests().length).toBe(before);
  });

  it('reports each voter alone and the ensemble against the synthetic truth (App. P)', () => {
    // Left by the garbage-answer case: a over_trust, b invalid, c hallucination, ensemble over_trust.
    const table = agreementReportTable(store, studyId);
    expect(table.simulated).toBe(true);
    expect(table.notes).toContain('Gold: the truth labels.');
    const overall = table.rows.filter((row) => row.dataset === 'all');
    expect(overall.map((row) => [row.classifier, row.n, row.accuracy])).toEqual([
      ['voter:a', 3, 100],
      ['voter:b', 3, 0],
      ['voter:c', 3, 0],
      ['ensemble', 3, 100],
      ['diff', 3, 100],
    ]);
  });

  it('shows the mechanism mix by each voter alone beside the ensemble (App. P)', () => {
    // Same labels as above: a over_trust, b invalid (left out), c hallucination.
    const table = reportTable(store, studyId, 'mechanisms');
    const pooled = table.rows.filter((row) => row.judge === 'all');
    expect(pooled.map((row) => [row.labels, row.n, row.over_trust, row.hallucination])).toEqual([
      ['ensemble', 3, 100, 0],
      ['voter:a', 3, 100, 0],
      ['voter:c', 3, 0, 100],
    ]);
    const voter = labelOf(findFlippedReps(store, studyId)[0]!.repId, 'voter:a');
    expect(voter?.details).toMatchObject({ providerOptions: { thinking: null } });
  });

  it('never stores an API key', () => {
    const text = JSON.stringify(store.db.prepare('SELECT * FROM mechanism_labels').all());
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(env.OPENAI_API_KEY);
  });
});
