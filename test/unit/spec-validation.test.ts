import { describe, expect, it } from 'vitest';
import { parseStudySpec } from '../../src/main/engine/runner/spec-file';

// Problems a schema alone misses, each with its line.
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

describe('study spec validation', () => {
  it('refuses a judge id used twice, at its line', () => {
    const message = problem([
      ...base,
      '  - { id: sim, provider: synthetic, model: other, persona: deferential-frontier }',
    ]);
    expect(message).toContain(
      'spec.yaml:5: judges.1.id: judge id "sim" is already used by judges.0',
    );
  });

  it('refuses an unknown cue preset, at its line', () => {
    const message = problem([
      ...base,
      'arms:',
      '  cues:',
      '    - { kind: preset, preset: strongest }',
    ]);
    expect(message).toMatch(
      /spec\.yaml:7: arms\.cues\.0\.preset: unknown cue preset "strongest" \(known: strong,/,
    );
  });

  it('names each unknown key at its own line', () => {
    const message = problem([
      ...base,
      'reps: 2',
      'repz: 3',
      'concurrency:',
      '  total: 2',
      '  containrs: 2',
    ]);
    expect(message).toContain('spec.yaml:6: repz: unknown field');
    expect(message).toContain('spec.yaml:9: concurrency.containrs: unknown field');
  });

  it('refuses a YAML alias bomb quickly, with a clear error', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      ...['b', 'c', 'd', 'e', 'f', 'g'].map(
        (name, index) => `${name}: &${name} [${Array(10).fill(`*${'abcdefg'[index]}`).join(',')}]`,
      ),
      'name: [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]',
    ];
    const started = Date.now();
    const message = problem(bomb);
    expect(message).toMatch(
      /does not parse:\nspec\.yaml: Excessive alias count .*at most 50 alias/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('still takes a spec with a few aliases', () => {
    const spec = parseStudySpec(
      [...base, 'arms:', '  placements: &p [system, user]', 'x-unused: 1']
        .join('\n')
        .replace('x-unused: 1', ''),
      'spec.yaml',
    );
    expect(spec.arms.placements).toEqual(['system', 'user']);
  });
});
