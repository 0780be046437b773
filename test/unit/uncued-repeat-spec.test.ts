/**
 * `arms.uncuedRepeat` in a study spec: off by default (an old spec's conditions are unchanged),
 * a boolean, on only by asking, and refused beside a mitigation set named "repeat" (whose
 * mitigated control would read as the repeat), each problem at its line.
 */
import { describe, expect, it } from 'vitest';
import { expandConditions } from '../../src/main/engine/runner/conditions';
import { parseStudySpec } from '../../src/main/engine/runner/spec-file';

const base = [
  'name: study',
  'suite: cuelab-mini',
  'judges:',
  '  - { id: sim, provider: synthetic, model: sim, persona: deferential-frontier }',
];

function problem(lines: string[]): string {
  try {
    parseStudySpec(lines.join('\n'), 'spec.yaml');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the spec was accepted');
}

const keys = (lines: string[]) =>
  expandConditions(parseStudySpec(lines.join('\n'), 'spec.yaml')).map((condition) => condition.key);

describe('arms.uncuedRepeat in a study spec', () => {
  it('is off by default, so an old spec keeps its conditions', () => {
    const spec = parseStudySpec(base.join('\n'), 'spec.yaml');
    expect(spec.arms.uncuedRepeat).toBe(false);
    expect(keys(base)).toEqual(['uncued', 'preset:strong@system']);
    expect(keys([...base, 'arms:', '  placements: [system]'])).toEqual([
      'uncued',
      'preset:strong@system',
    ]);
  });

  it('adds the uncued repeat after the controls when on, for every dimension', () => {
    expect(keys([...base, 'arms:', '  uncuedRepeat: true'])).toEqual([
      'uncued',
      'uncued+repeat',
      'preset:strong@system',
    ]);
    expect(
      keys([
        ...base,
        'dimensions: [task_success, state_correctness]',
        'arms:',
        '  uncuedRepeat: true',
        '  mitigations: [[], [{ kind: builtin, id: guard }]]',
        '  mitigatedControl: true',
      ]),
    ).toEqual([
      'uncued',
      'uncued+guard',
      'uncued+repeat',
      'preset:strong@system',
      'preset:strong@system+guard',
      'uncued#state_correctness',
      'uncued+guard#state_correctness',
      'uncued+repeat#state_correctness',
      'preset:strong@system#state_correctness',
      'preset:strong@system+guard#state_correctness',
    ]);
  });

  it('can be left out with arms.drop like any condition', () => {
    expect(keys([...base, 'arms:', '  uncuedRepeat: true', '  drop: ["uncued+repeat"]'])).toEqual([
      'uncued',
      'preset:strong@system',
    ]);
  });

  it('refuses a value that is not a boolean, at its line', () => {
    const message = problem([...base, 'arms:', '  uncuedRepeat: "yes"']);
    expect(message).toContain('spec.yaml:6: arms.uncuedRepeat');
    expect(message).toMatch(/boolean/);
  });

  it('refuses a mitigation set named "repeat" beside it, naming both', () => {
    const mitigation =
      '  mitigations: [[], [{ kind: custom, id: repeat, label: Again, systemText: Look again. }]]';
    const message = problem([...base, 'arms:', '  uncuedRepeat: true', mitigation]);
    expect(message).toContain('arms.uncuedRepeat');
    expect(message).toContain('a mitigation set named "repeat"');
    // Without the repeat the same mitigation is fine.
    expect(keys([...base, 'arms:', mitigation])).toContain('preset:strong@system+repeat');
  });
});
