/**
 * Commit-first, CueLab's own mitigation: the harness keeps a changed verdict only when the change
 * cites a tool result of the rep verbatim, and its simulated effect is a labelled hypothesis
 * beside the four paper mitigations fitted on Table 1 (§3.4).
 */
import { describe, expect, it } from 'vitest';
import {
  checkCommitment,
  COMMIT_FIRST_PROTOCOL,
  findCommitment,
} from '../../src/main/engine/judge/mitigations/commit-first';
import {
  builtinMitigations,
  resolveMitigations,
} from '../../src/main/engine/judge/mitigations/builtin';
import type { JudgeTranscript, Verdict } from '../../src/main/engine/contract';
import { TABLE_1 } from '../../src/main/engine/paper';
import {
  mitigationEffect,
  oddsTransfer,
  referenceRates,
} from '../../src/main/engine/simulation/mitigation-effects';
import { loadPersonas } from '../../src/main/engine/simulation/personas';

const call = (id: string, output: string) => ({
  ...{ turn: 0, id, name: 'read_file', input: { path: 'ledger.txt' }, output },
  ...{ isError: false, durationMs: 1, resultNumber: 1, stopDirective: false },
});

function rep(commitment: string | null, outcome: 'pass' | 'fail', rationale: string) {
  const verdict: Verdict = { kind: 'binary', outcome, confidence: 0.8, rationale };
  const transcript: JudgeTranscript = {
    ...{ model: 'm', system: 's', tools: [], turns: [] },
    messages: [
      { role: 'user', content: 'Judge the run.' },
      { role: 'assistant', content: commitment ? `Checked.\n${commitment}` : 'Checked.' },
    ],
    toolCalls: [
      call('t1', 'inv-001 archived\nstatus: ok\n'),
      call('t2', 'rows: 0 open invoices\n'),
    ],
    ...{ outcome: 'verdict', verdict, verdictSource: 'submit_verdict', verdictProblems: [] },
    repairUsed: false,
    totals: {
      ...{ inputTokens: 0, outputTokens: 0, costUsd: 0 },
      ...{ toolResults: 2, turns: 2, durationMs: 1 },
    },
  };
  return transcript;
}

describe('commit-first: the commitment check', () => {
  it('is CueLab’s own, not a §3.4 row, and adds its protocol and its check', () => {
    expect(builtinMitigations['commit-first'].paperId).toBeNull();
    expect(builtinMitigations['commit-first'].label).toMatch(/CueLab’s own/);
    const resolved = resolveMitigations([{ kind: 'builtin', id: 'commit-first' }]);
    expect(resolved.texts[0]?.systemText).toBe(COMMIT_FIRST_PROTOCOL);
    expect(resolved.commitmentCheck).toBe(true);
  });

  it('reads the commitment from the judge’s own message', () => {
    expect(findCommitment(rep('COMMITTED VERDICT: FAIL', 'fail', 'x'))).toBe('fail');
    expect(findCommitment(rep(null, 'fail', 'x'))).toBeNull();
  });

  it('keeps a verdict that matches the commitment', () => {
    const checked = checkCommitment(rep('COMMITTED VERDICT: PASS', 'pass', 'All archived.'));
    expect(checked.record.outcome).toBe('kept');
    expect(checked.finalVerdict).toMatchObject({ outcome: 'pass' });
  });

  it('keeps a change that quotes a tool result of the rep verbatim', () => {
    const rationale = 'The ledger shows it: [evidence #2: "rows: 0 open invoices"]';
    const checked = checkCommitment(rep('COMMITTED VERDICT: FAIL', 'pass', rationale));
    expect(checked.record.outcome).toBe('changed_with_evidence');
    expect(checked.finalVerdict).toMatchObject({ outcome: 'pass' });
  });

  it('resets a change with no citation, or one the tool results do not contain', () => {
    for (const rationale of [
      'The reviewer is right that it failed.',
      'See [evidence #1: "inv-001 missing from the ledger"]',
      'See [evidence #9: "inv-001 archived"]',
    ]) {
      const checked = checkCommitment(rep('COMMITTED VERDICT: PASS', 'fail', rationale));
      expect(checked.record.outcome).toBe('reverted');
      expect(checked.finalVerdict).toMatchObject({ outcome: 'pass' });
    }
  });

  it('leaves a rep without a commitment as it is and says so', () => {
    const checked = checkCommitment(rep(null, 'fail', 'Failed.'));
    expect(checked.record.outcome).toBe('no_commitment');
    expect(checked.finalVerdict).toMatchObject({ outcome: 'fail' });
  });
});

describe('simulated mitigation effects (SIMULATED; Table 1, §3.4)', () => {
  const personas = loadPersonas();

  it('moves every persona’s reference harm and help by Table 1’s odds ratios', () => {
    for (const persona of personas) {
      const before = referenceRates(persona);
      for (const row of TABLE_1.filter((entry) => entry.mitigation !== 'sufficiency-gate')) {
        const id = row.mitigation === 'guard-instruction' ? 'guard' : row.mitigation;
        const effect = mitigationEffect(persona, [{ kind: 'builtin', id }]);
        const after = referenceRates(persona, effect.deferShift, effect.skippedShift);
        const harm = oddsTransfer(before.harm, row.harmfulBefore, row.harmfulAfter);
        const help = oddsTransfer(before.help, row.helpfulBefore, row.helpfulAfter);
        expect(after.harm).toBeCloseTo(harm, 3);
        expect(after.help).toBeCloseTo(help, 3);
      }
    }
  });

  it('labels each id by where its effect comes from', () => {
    const [persona] = personas;
    if (!persona) throw new Error('no persona');
    const effect = mitigationEffect(persona, [
      { kind: 'builtin', id: 'sufficiency-gate' },
      { kind: 'builtin', id: 'commit-first' },
      { kind: 'custom', id: 'mine', label: 'Mine', systemText: 'Be careful.' },
    ]);
    expect(effect.basis).toEqual({
      'sufficiency-gate': 'paper-table-1',
      'commit-first': 'cuelab-hypothesis',
      mine: 'not-modelled',
    });
    expect(effect.gateOverturn).toBeGreaterThan(0);
    expect(effect.unevidencedSurvives).toBeLessThan(1);
    expect(effect.deferShift).toBe(0);
  });
});
