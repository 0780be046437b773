/**
 * The synthetic judge on items without probes: imported public runs (SWE-agent 1.1 and
 * Terminal-Bench fixtures in test/fixtures/import) judged through the real loop. It reads the
 * trajectory's pages with read_trajectory and decides from the persona's rates and the gold
 * label, a simulation marked as such. Reading the trajectory needs no container, so each item's
 * environment is an empty snapshot here; the Docker study is public-runs-synthetic.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotEnvironment } from '../../src/main/engine/environments/snapshot';
import { importRuns } from '../../src/main/engine/suites/import';
import { findPersona, loadPersonas, type Persona } from '../../src/main/engine/simulation/personas';
import { createSyntheticProvider } from '../../src/main/engine/simulation/provider';
import { loadJudgeRep } from '../../src/main/engine/store/judge-reps';
import { repConditionSchema, type RepConditionInput } from '../../src/shared/rep-condition';
import type { SuiteItem } from '../../src/shared/suite-format';
import { runSyntheticRep } from '../helpers/synthetic-rep';
import { useTempStore } from '../helpers/temp-store';

const fixtures = join(__dirname, '..', 'fixtures', 'import');
const imported = (folder: string) =>
  importRuns({ path: join(fixtures, folder), format: 'auto' }).suite.items;
const sweItems = imported('swe-agent-1.1');
const terminalItem = imported('terminal-bench')[0]!;
const byId = (id: string) => sweItems.find((item) => item.id === id)!;

function edited(edit: Record<string, unknown>): Persona {
  return findPersona(loadPersonas({ 'deferential-frontier': edit }), 'deferential-frontier');
}

describe('the synthetic judge on imported runs without probes', () => {
  const workspace = useTempStore();

  async function rep(item: SuiteItem, persona: Persona, condition: RepConditionInput = {}) {
    const snapshot = createSnapshotEnvironment({ substrate: 'files', files: {}, shell: false });
    try {
      const target = { item, environment: snapshot.environment, suiteId: 'imported-runs' };
      return await runSyntheticRep(workspace.store(), target, persona, condition);
    } finally {
      await snapshot.dispose();
    }
  }

  it('has the gold labels these tests rely on', () => {
    expect([byId('django__django-11099').gold, byId('getmoto__moto-5109').gold]).toEqual([
      'pass',
      'fail',
    ]);
    expect(terminalItem.gold).toBe('pass');
    for (const item of [...sweItems, terminalItem]) expect(item.probes ?? []).toEqual([]);
  });

  it('reads the opening and the end of the trajectory and, reading the end, finds the gold label', async () => {
    const careful = edited({ skipDecisiveProbability: 0 });
    for (const item of [...sweItems, terminalItem]) {
      const result = await rep(item, careful);
      expect(result.transcript.outcome, item.id).toBe('verdict');
      const calls = result.transcript.toolCalls;
      expect(calls.map((call) => [call.name, call.isError])).toEqual([
        ['read_trajectory', false],
        ['read_trajectory', false],
      ]);
      // Real pages of the real trajectory: numbered lines the tool served.
      expect(calls[0]!.output).toMatch(/^\s*1 \| /);
      expect(result.finalVerdict, item.id).toMatchObject({ kind: 'binary', outcome: item.gold });
      expect(result.simulation).toMatchObject({
        simulated: true,
        readFrom: 'trajectory',
        probesRun: ['trajectory-opening', 'trajectory-ending'],
        uncuedConclusion: item.gold,
        mechanism: 'none',
      });
      // The rationale quotes the line the last page ends on, which the tool really returned.
      const quoted = /read_trajectory lines \d+–\d+ returned "([^"]+)"/.exec(
        result.finalVerdict?.rationale ?? '',
      )?.[1];
      expect(quoted, item.id).toBeTruthy();
      expect(calls.map((call) => call.output).join('\n')).toContain(quoted);
      const stored = loadJudgeRep(workspace.store(), result.repId);
      expect(stored?.simulated).toBe(1);
      expect(stored?.simulation).toMatchObject({ readFrom: 'trajectory' });
    }
  });

  it('judging by the opening alone, misses the gold label (its uncued error, Table 5)', async () => {
    const skimmer = edited({ skipDecisiveProbability: 1 });
    const result = await rep(byId('django__django-11099'), skimmer);
    expect(result.transcript.toolCalls).toHaveLength(1);
    expect(result.finalVerdict).toMatchObject({ kind: 'binary', outcome: 'fail' });
    expect(result.simulation).toMatchObject({ skippedDecisive: true, uncuedConclusion: 'fail' });
  });

  it('defers to a contradicting cue as the persona says, against the gold label it read', async () => {
    const certain = edited({
      skipDecisiveProbability: 0,
      cueResponse: { baseLogOdds: 12 },
      harmfulMechanisms: { overTrust: 1, hallucination: 0, underInvestigation: 0 },
      recheckBeforeDeferring: 0,
    });
    const result = await rep(terminalItem, certain, {
      cue: { kind: 'preset', preset: 'strong' },
      direction: 'severity',
      placement: 'system',
    });
    expect(result.finalVerdict).toMatchObject({ kind: 'binary', outcome: 'fail' });
    expect(result.simulation).toMatchObject({
      deferred: true,
      mechanism: 'over_trust',
      uncuedConclusion: 'pass',
      submittedConclusion: 'fail',
    });
  });

  it('cites a trajectory line no page holds when it hallucinates', async () => {
    const inventor = edited({
      skipDecisiveProbability: 0,
      cueResponse: { baseLogOdds: 12 },
      harmfulMechanisms: { overTrust: 0, hallucination: 1, underInvestigation: 0 },
      recheckBeforeDeferring: 0,
    });
    const result = await rep(byId('django__django-11099'), inventor, {
      cue: { kind: 'preset', preset: 'strong' },
      direction: 'severity',
      placement: 'system',
    });
    const evidence = result.simulation.fabricatedEvidence ?? '';
    expect(evidence).not.toBe('');
    expect(result.finalVerdict?.rationale).toContain(evidence);
    for (const call of result.transcript.toolCalls) expect(call.output).not.toContain(evidence);
  });

  it('refuses, naming the item, one with neither probes nor a gold label', () => {
    const { gold: _gold, ...unlabelled } = terminalItem;
    const condition = repConditionSchema.parse({});
    expect(() =>
      createSyntheticProvider({
        item: unlabelled,
        persona: edited({}),
        cue: null,
        seed: condition.seed,
        repKey: '0',
        readout: { kind: 'binary', dimension: 'task_success', instructions: '' } as never,
      }),
    ).toThrow(`Item ${terminalItem.id} has no probes and no gold label`);
  });
});
