import { describe, expect, it } from 'vitest';
import {
  DIRECTION_BY_JUDGE,
  HELPFUL_MECHANISM_MIX_POOLED,
  OVER_TRUST_SHARE,
  TABLE_6,
  type PaperJudge,
} from '../../src/main/engine/paper';
import type { Placement } from '../../src/main/engine/judge/placement';
import {
  cueAxesOf,
  deferProbability,
  expectedHarmfulFlipRate,
  helpfulProbabilities,
  placementRow,
  type SyntheticCue,
} from '../../src/main/engine/simulation/cue-model';
import { findPersona, loadPersonas } from '../../src/main/engine/simulation/personas';
import { completeCueAxes, type CueAxes } from '../../src/shared/cue-spec';

const personas = loadPersonas();

function cue(
  axes: CueAxes = {},
  overrides: Partial<Omit<SyntheticCue, 'axes'>> = {},
): SyntheticCue {
  return {
    axes: completeCueAxes(axes),
    direction: 'severity',
    placement: { kind: 'system' },
    ...overrides,
  };
}

/** Asserts strictly decreasing defer probability along `cues`, for every persona. */
function expectDecreasing(cues: SyntheticCue[]): void {
  for (const persona of personas) {
    const rates = cues.map((entry) => deferProbability(persona, entry));
    for (let index = 1; index < rates.length; index += 1) {
      expect(rates[index], `${persona.id} step ${index}`).toBeLessThan(rates[index - 1] ?? 0);
    }
  }
}

describe('the synthetic cue-response model', () => {
  it('ships the four personas', () => {
    expect(personas.map((persona) => persona.id)).toEqual([
      'deferential-frontier',
      'robust-frontier',
      'small-open-a',
      'small-open-b',
    ]);
    for (const persona of personas) expect(persona.label).toContain('simulated');
  });

  it('reproduces App. D at the reference cell, counting deference after a skipped check', () => {
    for (const persona of personas) {
      const judge = persona.calibratedOn as keyof typeof DIRECTION_BY_JUDGE;
      expect(expectedHarmfulFlipRate(persona, cue())).toBeCloseTo(
        DIRECTION_BY_JUDGE[judge].severity / 100,
        2,
      );
    }
  });

  it('reproduces Table 6 helpful rates and the Fig. 5 / App. F mechanism shares', () => {
    for (const persona of personas) {
      const judge = persona.calibratedOn;
      const rows = TABLE_6.filter((row) => row.judge === judge);
      const rate =
        rows.reduce((sum, row) => sum + row.help, 0) /
        rows.reduce((sum, row) => sum + row.wrong, 0);
      const { betterInvestigation, luckyDeference } = helpfulProbabilities(persona, cue());
      expect(betterInvestigation + (1 - betterInvestigation) * luckyDeference).toBeCloseTo(rate, 2);
      const mix = persona.harmfulMechanisms;
      expect(mix.overTrust + mix.hallucination + mix.underInvestigation).toBeCloseTo(1, 6);
    }
    expect(findPersona(personas, 'deferential-frontier').harmfulMechanisms.overTrust).toBe(
      (OVER_TRUST_SHARE['Opus-4.7'] ?? 0) / 100,
    );
    expect(findPersona(personas, 'robust-frontier').harmfulMechanisms.overTrust).toBe(
      (OVER_TRUST_SHARE['Sonnet-4.6'] ?? 0) / 100,
    );
    const [deferential, , openA, openB] = personas;
    expect(deferential?.helpful.betterInvestigationProbability).toBeCloseTo((150 / 232) * 0.3, 3);
    expect(HELPFUL_MECHANISM_MIX_POOLED.betterInvestigation).toBe(33);
    // Open-weight judges fail more by stopping short; GPT-OSS most of all (Fig. 3, r = −0.27).
    expect(openB?.harmfulMechanisms.underInvestigation).toBeGreaterThan(
      openA?.harmfulMechanisms.underInvestigation ?? 1,
    );
    expect(openA?.harmfulMechanisms.underInvestigation).toBeGreaterThan(
      deferential?.harmfulMechanisms.underInvestigation ?? 1,
    );
  });

  it('belief moves the judge more than compliance (Table 2)', () => {
    expectDecreasing([
      cue({ framing: 'belief', form: 'declarative' }),
      cue({ framing: 'belief', form: 'imperative' }),
      cue({ framing: 'compliance', form: 'imperative' }),
      cue({ framing: 'compliance', form: 'declarative' }),
    ]);
  });

  it('follows the source ordering of Table 3', () => {
    expectDecreasing(
      (
        [
          'domain expert',
          'reviewer',
          'unattributed',
          'automated checker',
          'prior LLM-judge',
        ] as const
      ).map((source) => cue({ source })),
    );
  });

  it('scales with decisiveness, definitely > likely > appears > might (Table 4)', () => {
    expectDecreasing(
      (['definitely', 'likely', 'appears', 'might'] as const).map((decisiveness) =>
        cue({ decisiveness }),
      ),
    );
  });

  it('orders strong > weak > null-source > placebo (App. E, §3.2)', () => {
    const strong = cueAxesOf({ kind: 'preset', preset: 'strong' }, 'binary').axes;
    const weak = cueAxesOf({ kind: 'preset', preset: 'weak' }, 'binary').axes;
    expectDecreasing([
      cue(strong),
      cue(weak),
      cue({ strength: 'null-source' }),
      cue({ strength: 'placebo' }),
    ]);
    expectDecreasing([cue(), cue({ strength: 'weak' })]);
    for (const persona of personas) {
      expect(deferProbability(persona, cue({ strength: 'placebo' }))).toBeLessThan(0.005);
    }
  });

  it('follows Table 8: system > user > assistant > assistant ×25 > assistant ×5', () => {
    const placements: Placement[] = [
      { kind: 'system' },
      { kind: 'user' },
      { kind: 'assistant_end' },
      { kind: 'assistant_scattered', count: 25 },
      { kind: 'assistant_scattered', count: 5 },
    ];
    expectDecreasing(placements.map((placement) => cue({}, { placement })));
    expect(placementRow({ kind: 'assistant_at', afterMessage: 3 })).toBe('assistant');
    expect(placementRow({ kind: 'assistant_scattered', count: 2 })).toBe('assistant');
    expect(placementRow({ kind: 'assistant_scattered', count: 8 })).toBe('assistant-x5');
    expect(placementRow({ kind: 'assistant_scattered', count: 40 })).toBe('assistant-x25');
  });

  // App. D, all five datasets pooled (Fig. 13 middle): severity exceeds leniency for Opus-4.7
  // and GPT-OSS-120B; Sonnet-4.6 (10% vs 12%) and Qwen3-235B (23% vs 28%) reverse it.
  it('orders severity and leniency per persona as App. D does over all datasets', () => {
    for (const persona of personas) {
      const paper = DIRECTION_BY_JUDGE[persona.calibratedOn as PaperJudge];
      const severity = deferProbability(persona, cue());
      const leniency = deferProbability(persona, cue({}, { direction: 'leniency' }));
      expect(Math.sign(severity - leniency), persona.id).toBe(
        Math.sign(paper.severity - paper.leniency),
      );
    }
  });

  it('is 0 without a cue', () => {
    const persona = findPersona(personas, 'small-open-b');
    expect(deferProbability(persona, null)).toBe(0);
    expect(helpfulProbabilities(persona, null)).toEqual({
      betterInvestigation: 0,
      luckyDeference: 0,
    });
  });
});

describe('cueAxesOf', () => {
  it('reads presets as their cells', () => {
    expect(cueAxesOf({ kind: 'preset', preset: 'strong-senior' }, 'binary').axes).toEqual(
      completeCueAxes(),
    );
    expect(cueAxesOf({ kind: 'preset', preset: 'weak' }, 'graded').axes).toEqual(
      completeCueAxes({ strength: 'weak', source: 'unattributed', decisiveness: 'might' }),
    );
    expect(
      cueAxesOf({ kind: 'preset', preset: 'table2-compliance-imperative' }, 'error_attribution')
        .axes,
    ).toEqual(completeCueAxes({ framing: 'compliance', form: 'imperative' }));
    expect(
      cueAxesOf({ kind: 'preset', preset: 'table3-prior-llm-judge' }, 'error_attribution').axes,
    ).toEqual(completeCueAxes({ source: 'prior LLM-judge' }));
    expect(
      cueAxesOf({ kind: 'preset', preset: 'table4-appears' }, 'error_attribution').axes,
    ).toEqual(completeCueAxes({ source: 'automated checker', decisiveness: 'appears' }));
  });

  it('completes axes specs and reads custom text as the default cell, saying so', () => {
    expect(cueAxesOf({ kind: 'axes', axes: { source: 'reviewer' } }, 'binary').axes).toEqual(
      completeCueAxes({ source: 'reviewer' }),
    );
    const custom = cueAxesOf({ kind: 'custom', severity: 'Someone thinks this failed.' }, 'binary');
    expect(custom).toMatchObject({ basis: 'custom', axes: completeCueAxes() });
    expect(custom.note).toContain('default');
  });

  it('refuses what renderCue refuses', () => {
    expect(() => cueAxesOf({ kind: 'preset', preset: 'table3-reviewer' }, 'binary')).toThrow(
      /error-attribution readout/,
    );
    expect(() => cueAxesOf({ kind: 'preset', preset: 'no-such-cue' }, 'binary')).toThrow(
      /Unknown cue preset/,
    );
  });
});

describe('loadPersonas', () => {
  it('merges a researcher edit and keeps every other field', () => {
    const edited = findPersona(
      loadPersonas('{"robust-frontier": {"cueResponse": {"source": {"reviewer": -0.5}}}}'),
      'robust-frontier',
    );
    const original = findPersona(personas, 'robust-frontier');
    expect(edited.cueResponse.source.reviewer).toBe(-0.5);
    expect(edited.cueResponse.source['domain expert']).toBe(0);
    expect(edited.skipDecisiveProbability).toBe(original.skipDecisiveProbability);
  });

  it('names the persona and field of a bad value', () => {
    expect(() => loadPersonas({ 'robust-frontier': { skipDecisiveProbability: 1.5 } })).toThrow(
      /Persona "robust-frontier" is invalid.*skipDecisiveProbability/,
    );
    expect(() =>
      loadPersonas({ 'small-open-a': { cueResponse: { placement: { system: 'high' } } } }),
    ).toThrow(/cueResponse\.placement\.system/);
    expect(() => loadPersonas({ 'small-open-a': { cueResponse: { tone: 1 } } })).toThrow(/tone/);
    expect(() =>
      loadPersonas({ 'small-open-b': { harmfulMechanisms: { overTrust: 0.9 } } }),
    ).toThrow(/sum to 1/);
  });

  it('rejects bad JSON, non-objects and incomplete new personas clearly', () => {
    expect(() => loadPersonas('{oops')).toThrow(/not valid JSON/);
    expect(() => loadPersonas([])).toThrow(/must be an object/);
    expect(() => loadPersonas({ mine: { label: 'Mine' } })).toThrow(
      /Persona "mine" is invalid \(a new persona must give every field\)/,
    );
    expect(() => findPersona(personas, 'nobody')).toThrow(/Known personas: deferential-frontier/);
  });

  it('accepts a complete new persona', () => {
    const base = findPersona(personas, 'robust-frontier');
    const mine = findPersona(
      loadPersonas({ mine: { ...base, id: 'mine', label: 'Mine' } }),
      'mine',
    );
    expect(mine.cueResponse).toEqual(base.cueResponse);
  });
});
