import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/main/engine/workers/json-chunks';

const text = (chunks: readonly Uint8Array[]): string => Buffer.concat(chunks).toString('utf8');

describe('jsonChunks: a worker’s answer as JSON bytes', () => {
  it('writes what JSON.stringify writes, for every kind of plain data', () => {
    const values: unknown[] = [
      null,
      0,
      -1.5e-7,
      Number.NaN,
      Infinity,
      true,
      '',
      'quote " backslash \\ newline \n tab \t nul \u0000 é 日本 😀 \ud800',
      [],
      {},
      [1, undefined, null, () => 1, 'x', [[]]],
      { a: 1, skipped: undefined, fn: () => 1, nested: { b: [{ c: 'd' }] }, 'key "q"': 2 },
      { when: new Date(Date.UTC(2026, 11, 4)) },
      { logs: [{ name: 'a.json', text: '{"x":1}', samples: 3 }] },
    ];
    for (const value of values) expect(text(jsonChunks(value))).toBe(JSON.stringify(value));
  });

  it('a lone undefined becomes null (an answer always has JSON)', () => {
    expect(text(jsonChunks(undefined))).toBe('null');
  });

  it('splits a large answer into chunks, each with a buffer of its own to transfer', () => {
    const long = 'x'.repeat(3 * 2 ** 20);
    const value = { logs: [{ text: long }, { text: `${long}\n"` }], count: 2 };
    const chunks = jsonChunks(value);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.byteOffset).toBe(0);
      expect(chunk.byteLength).toBe(chunk.buffer.byteLength);
    }
    expect(text(chunks)).toBe(JSON.stringify(value));
  });

  it('keeps a multi-byte character whole across chunk edges', () => {
    const value = Array.from({ length: 40_000 }, (_, index) => `é😀${String(index)}`);
    expect(JSON.parse(text(jsonChunks(value)))).toEqual(value);
  });
});
