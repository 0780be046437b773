/**
 * Every key shape of secrets.ts on adversarial text of a stranger's size (1 MB): repeated
 * prefixes, long runs of key characters, near-misses. A shape whose scan returns into a run
 * (an unbounded lookahead at every `sk-`) is quadratic, and 1 MB of it takes minutes, so this
 * suite cannot finish; the speed itself is measured in bench/redaction.ts. Each case also
 * asserts what is redacted and what is left.
 */
import { describe, expect, it } from 'vitest';
import { keyShapes, redactKeyText } from '../../src/main/engine/secrets';

const size = 1024 * 1024;

/** `unit` repeated to at least `size` characters. */
function fill(unit: string): string {
  return unit.repeat(Math.ceil(size / unit.length));
}

interface ShapeCase {
  /** A real-looking key of the shape. */
  key: string;
  /** Adversarial texts and what redaction must make of them. */
  hostile: { text: string; expected: string }[];
}

const keyMarker = '[redacted:key]';

const cases: Record<string, ShapeCase> = {
  bearer: {
    key: 'Bearer abcdefghijklmnop0123',
    hostile: [
      { text: fill('Bearer '), expected: fill('Bearer ') },
      { text: `Bearer${fill(' ')}!`, expected: `Bearer${fill(' ')}!` },
      { text: fill('Bearer abcdefghijklmno '), expected: fill('Bearer abcdefghijklmno ') },
      { text: `Bearer ${fill('a')}`, expected: `Bearer ${keyMarker}` },
    ],
  },
  'openai-anthropic': {
    key: 'sk-ant-api03-abcdefghijklmnop1234',
    hostile: [
      { text: fill('sk-'), expected: fill('sk-') },
      { text: `${fill('sk-')}1`, expected: keyMarker },
      { text: fill('sk-ant-'), expected: fill('sk-ant-') },
      { text: `sk-${fill('a')}`, expected: `sk-${fill('a')}` },
      { text: `sk-${fill('a')}7`, expected: keyMarker },
      { text: fill('sk-abc1 '), expected: fill('sk-abc1 ') },
      { text: fill('sk-abcdefghijklmnop '), expected: fill('sk-abcdefghijklmnop ') },
    ],
  },
  google: {
    key: 'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234',
    hostile: [
      { text: fill('AIza'), expected: keyMarker },
      { text: fill(' AIza'), expected: fill(' AIza') },
      {
        text: fill('AIzaabcdefghijklmnopqrstuvwxyz0 '),
        expected: fill('AIzaabcdefghijklmnopqrstuvwxyz0 '),
      },
    ],
  },
  github: {
    key: 'ghp_abcdefghijklmnopqrstuvwxyz012345',
    hostile: [
      { text: fill('ghp_'), expected: keyMarker },
      { text: fill(' github_pat'), expected: fill(' github_pat') },
      { text: fill('gho_abcdefghijklmnopqrs '), expected: fill('gho_abcdefghijklmnopqrs ') },
    ],
  },
  huggingface: {
    key: 'hf_abcdefghijklmnopqrstuvwxyzABCDEF12',
    hostile: [
      { text: fill('hf_'), expected: fill('hf_') },
      { text: `hf_${fill('a')}`, expected: `hf_${fill('a')}` },
      { text: `hf_${fill('a')}9`, expected: keyMarker },
    ],
  },
  xai: {
    key: 'xai-abcdefghijklmnopqrstuv123',
    hostile: [
      { text: fill('xai-'), expected: fill('xai-') },
      { text: `xai-${fill('b')}`, expected: `xai-${fill('b')}` },
      {
        text: fill(' xai-abcdefghijklmnopqrs1'),
        expected: fill(' xai-abcdefghijklmnopqrs1').replaceAll(
          'xai-abcdefghijklmnopqrs1',
          keyMarker,
        ),
      },
    ],
  },
  aws: {
    key: 'AKIAABCDEFGHIJKLMNOP',
    hostile: [
      { text: fill('AKIA'), expected: fill('AKIA') },
      { text: fill('AKIA0123456789ABCDE '), expected: fill('AKIA0123456789ABCDE ') },
      {
        text: fill(' AKIAABCDEFGHIJKLMNOP'),
        expected: fill(' AKIAABCDEFGHIJKLMNOP').replaceAll('AKIAABCDEFGHIJKLMNOP', keyMarker),
      },
    ],
  },
};

describe('key redaction on 1 MB of hostile text', () => {
  it('has a case for every key shape', () => {
    expect(Object.keys(cases).sort()).toEqual(keyShapes.map((shape) => shape.name).sort());
  });

  for (const shape of keyShapes) {
    const shapeCase = cases[shape.name];
    it(`${shape.name}: redacts a key after 1 MB of near-misses, leaves the near-misses`, () => {
      if (!shapeCase) throw new Error(`no case for ${shape.name}`);
      const expectedKey = shapeCase.key.startsWith('Bearer') ? `Bearer ${keyMarker}` : keyMarker;
      expect(redactKeyText(`key: ${shapeCase.key} end`)).toBe(`key: ${expectedKey} end`);
      for (const [index, { text, expected }] of shapeCase.hostile.entries()) {
        expect(text.length, `case ${index}`).toBeGreaterThanOrEqual(size);
        const redacted = redactKeyText(`${text}\n${shapeCase.key}`);
        expect(redacted === `${expected}\n${expectedKey}`, `case ${index}`).toBe(true);
      }
    });
  }

  it('redacts every shape at once in 1 MB of every prefix interleaved', () => {
    const prefixes = 'sk- sk-ant- Bearer AIza ghp_ hf_ xai- AKIA ';
    const text = fill(prefixes);
    expect(redactKeyText(text) === text).toBe(true);
    const keys = Object.values(cases).map((shapeCase) => shapeCase.key);
    const redacted = redactKeyText(`${text}${keys.join(' ')}`);
    expect(redacted.startsWith(text)).toBe(true);
    expect(redacted.slice(text.length)).toBe(
      keys.map((key) => (key.startsWith('Bearer') ? `Bearer ${keyMarker}` : keyMarker)).join(' '),
    );
  });
});
