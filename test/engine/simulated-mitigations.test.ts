/**
 * A synthetic study with the guard and cite-evidence arms must not report "the guard does
 * nothing": through the real runner, the real SQLite workspace and the synthetic judge the
 * workspace builds (runner/synthetic-judge.ts), each mitigated arm's harmful and helpful flip
 * rates move the way Table 1 (§3.4) reports. The seed is fixed. Each mitigated arm draws on its
 * own (as a real judge run twice would), so an item can flip after a mitigation without having
 * flipped before (McNemar's c > 0), and effects as small as cite-evidence's are checked in the
 * probabilities each rep records, not in 40 items' noisy rates.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportTable } from '../../src/main/engine/reports/tables';
import { createStudy } from '../../src/main/engine/runner/create-study';
import { estimateStudy } from '../../src/main/engine/runner/estimate';
import { StudyRunner } from '../../src/main/engine/runner/runner';
import { workspaceRunnerDeps } from '../../src/main/engine/runner/workspace-deps';
import { openStore, type Store } from '../../src/main/engine/store/database';
import { saveSuite } from '../../src/main/engine/store/suite-items';
import type { ReportRow } from '../../src/main/engine/analysis';
import { mitigationEffects } from '../../src/main/engine/analysis/mitigation';
import { studyRows } from '../../src/main/engine/reports/rows';
import { studySpecSchema } from '../../src/shared/study-spec';
import { suiteFileSchema } from '../../src/shared/suite-format';
import { makeTempDir } from '../helpers/temp-dir';

const ITEMS = 80;

/**
 * Every item's surface check misleads, for a passing and a failing agent alike, so a judge that
 * skips the decisive check is wrong uncued (helpful flips need wrong items; a fifth or so are)
 * and one that runs it is right (harmful flips need right ones).
 */
const suite = suiteFileSchema.parse({
  id: 'simulated-mitigations',
  name: 'Simulated mitigations',
  items: Array.from({ length: ITEMS }, (_, index) => {
    const passes = index % 2 === 0;
    const surfaceMet = !passes;
    return {
      ...{ id: `item-${index}`, dataset: 'sim-mitigations', substrate: 'filesystem' },
      task: 'Archive the invoices and mark them archived in the ledger.',
      trajectory: [{ role: 'assistant', content: 'Archived and marked.' }],
      environment: {
        files: {
          'notes.txt': surfaceMet ? 'status: archived\n' : 'status: pending\n',
          'ledger.txt': passes ? 'inv-001 archived\n' : 'inv-001 open\n',
        },
      },
      gold: passes ? 'pass' : 'fail',
      probes: [
        {
          ...{ id: 'notes', tool: 'read_file', input: { path: 'notes.txt' } },
          ...{ expect: { kind: 'contains', value: 'status: archived' } },
          claim: 'the notes say it is archived',
        },
        {
          ...{ id: 'ledger', tool: 'read_file', input: { path: 'ledger.txt' } },
          ...{ expect: { kind: 'contains', value: 'inv-001 archived' } },
          ...{ claim: 'the ledger marks it archived', decisive: true },
        },
      ],
    };
  }),
});

const spec = studySpecSchema.parse({
  name: 'simulated mitigations',
  suite: suite.id,
  seed: 7,
  judges: [
    { id: 'opus-like', provider: 'synthetic', model: 'synthetic', persona: 'deferential-frontier' },
  ],
  arms: {
    mitigations: [
      [],
      [{ kind: 'builtin', id: 'guard' }],
      [{ kind: 'builtin', id: 'cite-evidence' }],
      [{ kind: 'builtin', id: 'sufficiency-gate' }],
      [{ kind: 'builtin', id: 'commit-first' }],
      [{ kind: 'custom', id: 'my-note', label: 'My note', systemText: 'Be careful.' }],
    ],
  },
  reps: 3,
});

describe('mitigations in a synthetic study (Table 1, §3.4; SIMULATED)', () => {
  const dir = makeTempDir();
  let store: Store;
  let studyId: string;
  const rowOf = (mitigation: string): ReportRow => {
    const table = reportTable(store, studyId, 'mitigations');
    const row = table.rows.find(
      (entry) => entry.mitigation === mitigation && entry.scope === 'judge',
    );
    if (!row) throw new Error(`no judge row for ${mitigation}`);
    return row;
  };
  const num = (value: unknown) => value as number;

  beforeAll(async () => {
    store = openStore(join(dir.path, 'cuelab.sqlite'));
    saveSuite(store, suite, 'imported');
    studyId = createStudy(store, spec, suite.items);
    const runner = new StudyRunner(workspaceRunnerDeps(store, { env: {} }), {
      concurrency: 2,
      studyIds: [studyId],
      pollMs: 10,
    });
    runner.start();
    await runner.whenIdle();
    await runner.stop();
  }, 240_000);
  afterAll(() => {
    store.close();
    dir.remove();
  });

  it('the guard cuts harmful flips and helpful flips (Table 1: 18% → 5%, 30% → 12%)', () => {
    const row = rowOf('guard');
    expect(num(row.harmfulBeforePct)).toBeGreaterThan(0);
    expect(num(row.harmfulAfterPct)).toBeLessThan(num(row.harmfulBeforePct));
    expect(num(row.helpfulAfterPct)).toBeLessThan(num(row.helpfulBeforePct));
    // The frontier's coordinates: harm removed (pp) with its paired interval, help kept (%).
    expect(num(row.harmfulReductionPp)).toBeGreaterThan(0);
    expect(num(row.harmfulReductionCiLow)).toBeLessThan(num(row.harmfulReductionPp));
    expect(num(row.harmfulReductionCiHigh)).toBeGreaterThan(num(row.harmfulReductionPp));
    expect(num(row.helpfulRetainedPct)).toBeLessThan(100);
  });

  /** Mean recorded per-rep probabilities of the arm's reps (SIMULATED record). */
  const recorded = (conditionKey: string) => {
    const reps = (
      store.db
        .prepare(
          `SELECT r.simulation_json FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
            WHERE j.study_id = ? AND j.condition_key = ?`,
        )
        .all(studyId, conditionKey) as { simulation_json: string }[]
    ).map(
      (row) =>
        JSON.parse(row.simulation_json) as {
          deferProbability: number;
          betterInvestigationProbability: number;
          luckyDeferenceProbability: number;
        },
    );
    const mean = (pick: (rep: (typeof reps)[number]) => number) =>
      reps.reduce((sum, rep) => sum + pick(rep), 0) / reps.length;
    return {
      defer: mean((rep) => rep.deferProbability),
      help: mean((rep) => rep.betterInvestigationProbability + rep.luckyDeferenceProbability),
    };
  };

  it('cite-evidence cuts helpful flips more than harmful ones (18% → 16%, 30% → 19%)', () => {
    const before = recorded('preset:strong@system');
    const after = recorded('preset:strong@system+cite-evidence');
    expect(after.defer).toBeLessThanOrEqual(before.defer);
    expect(after.help).toBeLessThan(before.help);
    expect((before.help - after.help) / before.help).toBeGreaterThan(
      (before.defer - after.defer) / before.defer,
    );
  });

  it('mitigated arms draw on their own: items flip after a mitigation that held before', () => {
    const effects = mitigationEffects(studyRows(store, studyId)).filter(
      (effect) => effect.scope === 'judge',
    );
    expect(effects.length).toBe(5);
    for (const effect of effects)
      expect(effect.harmfulTest.c + effect.helpfulTest.c).toBeGreaterThan(0);
    const sum = effects.reduce((total, effect) => total + effect.harmfulTest.c, 0);
    expect(sum).toBeGreaterThan(0);
  });

  it('a user-defined mitigation is marked "effect not modelled" and changes nothing', () => {
    const row = rowOf('my-note');
    // Same probabilities in both arms; the rates differ only by the arms' own draws.
    expect(recorded('preset:strong@system+my-note')).toEqual(recorded('preset:strong@system'));
    expect(num(row.harmfulP)).toBeGreaterThan(0.05);
    expect(num(row.helpfulP)).toBeGreaterThan(0.05);
    const table = reportTable(store, studyId, 'mitigations');
    expect(table.notes.join('\n')).toMatch(/my-note.*effect not modelled/);
    expect(reportTable(store, studyId, 'flips').notes.join('\n')).toMatch(/effect not modelled/);
    // CSV carries no notes: the row says it.
    expect(row.simulatedEffect).toBe('effect not modelled');
    expect(rowOf('guard').simulatedEffect).toBe('SIMULATED: Table 1 odds ratios');
    expect(rowOf('commit-first').simulatedEffect).toBe('SIMULATED: CueLab hypothesis');
  });

  it('the sufficiency gate is answered by the synthetic auditor, never left unparsed', () => {
    const audits = store.db
      .prepare(
        `SELECT r.gate_json FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
          WHERE j.study_id = ? AND j.condition_key = 'preset:strong@system+sufficiency-gate'`,
      )
      .all(studyId) as { gate_json: string }[];
    const verdicts = audits.map(
      (row) => (JSON.parse(row.gate_json) as { auditVerdict?: string }).auditVerdict,
    );
    expect(verdicts).toContain('grounded');
    expect(verdicts).not.toContain('invalid');
    const row = rowOf('sufficiency-gate');
    expect(num(row.harmfulAfterPct)).toBeLessThanOrEqual(num(row.harmfulBeforePct));
  });

  it('commit-first (CueLab’s hypothesis) cuts harmful flips and is labelled a hypothesis', () => {
    const row = rowOf('commit-first');
    expect(num(row.harmfulAfterPct)).toBeLessThan(num(row.harmfulBeforePct));
    const notes = reportTable(store, studyId, 'mitigations').notes.join('\n');
    expect(notes).toMatch(/commit-first: CueLab's own mitigation, not the paper's; .*hypothesis/);
    // The synthetic judge writes its commitment and cites a tool result for every change it
    // keeps, so the harness's check (commit-first.ts) never has to reset one of its verdicts.
    const outcomes = (
      store.db
        .prepare(
          `SELECT r.gate_json FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
            WHERE j.study_id = ? AND j.condition_key = 'preset:strong@system+commit-first'`,
        )
        .all(studyId) as { gate_json: string }[]
    ).map((entry) => (JSON.parse(entry.gate_json) as { outcome: string }).outcome);
    expect(outcomes).toContain('kept');
    expect(outcomes).not.toContain('reverted');
    expect(outcomes).not.toContain('no_commitment');
  });

  it('records the simulated effect and its basis with every mitigated rep', () => {
    const rep = store.db
      .prepare(
        `SELECT r.simulation_json FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
          WHERE j.study_id = ? AND j.condition_key = 'preset:strong@system+guard' LIMIT 1`,
      )
      .get(studyId) as { simulation_json: string };
    const simulation = JSON.parse(rep.simulation_json) as {
      mitigation?: { basis: Record<string, string> };
    };
    expect(simulation.mitigation?.basis).toEqual({ guard: 'paper-table-1' });
  });
});

describe('the estimate of a synthetic study with mitigations (Builder and cuelab estimate)', () => {
  it('says a user-defined mitigation’s effect is not modelled and commit-first is a hypothesis', () => {
    const dir = makeTempDir();
    const store = openStore(join(dir.path, 'cuelab.sqlite'));
    try {
      const context = { env: {}, dockerAvailable: true, baseImagePresent: true };
      const estimate = estimateStudy(store, spec, suite.items, context);
      const messages = estimate.warnings.map((warning) => warning.message).join('\n');
      expect(messages).toMatch(/Effect not modelled: my-note is user-defined/);
      expect(messages).toMatch(/commit-first is CueLab’s own mitigation.*hypothesis/);
    } finally {
      store.close();
      dir.remove();
    }
  });
});
