import { describe, expect, it } from 'vitest';
import {
  costOf,
  defaultPriceTable,
  findPrice,
  mergePriceTable,
  type PriceEntry,
} from '../../src/main/engine/providers/pricing';

const million = { inputTokens: 1_000_000, outputTokens: 1_000_000 };

describe('costOf', () => {
  it('prices known models per million input and output tokens', () => {
    expect(
      costOf({ inputTokens: 2_000, outputTokens: 1_000 }, 'anthropic', 'claude-sonnet-4-6'),
    ).toBeCloseTo(0.006 + 0.015, 10);
    expect(costOf(million, 'openai', 'gpt-4o-mini')).toBeCloseTo(0.75, 10);
  });

  it('returns null for a model it does not know, never a guess', () => {
    expect(costOf(million, 'anthropic', 'claude-unreleased-9')).toBeNull();
    expect(costOf(million, 'openai', 'gpt-4o-mini')).not.toBeNull();
    expect(costOf(million, 'anthropic', 'gpt-4o-mini')).toBeNull(); // the provider matters
  });

  it('charges nothing for compatible servers and replay', () => {
    expect(costOf(million, 'openai-compatible', 'qwen3:8b')).toBe(0);
    expect(costOf(million, 'replay', 'claude-opus-4-7')).toBe(0);
  });

  it('prefers an exact row, then the longest glob', () => {
    const table: PriceEntry[] = [
      { provider: 'p', model: 'm-*', inputPerMillion: 1, outputPerMillion: 1 },
      { provider: 'p', model: 'm-large-*', inputPerMillion: 2, outputPerMillion: 2 },
      { provider: 'p', model: 'm-large-2', inputPerMillion: 3, outputPerMillion: 3 },
    ];
    expect(findPrice('p', 'm-small', table)?.inputPerMillion).toBe(1);
    expect(findPrice('p', 'm-large-1', table)?.inputPerMillion).toBe(2);
    expect(findPrice('p', 'm-large-2', table)?.inputPerMillion).toBe(3);
    expect(findPrice('p', 'mx', table)).toBeUndefined();
  });

  it('does not price variants it was not told about, nor let dots act as wildcards', () => {
    expect(findPrice('openai', 'gpt-4o-mini-2024-07-18')?.inputPerMillion).toBe(0.15);
    expect(findPrice('openai', 'gpt-4o-2024-05-13')).toBeUndefined(); // priced differently
    expect(findPrice('openai', 'gpt-4o-mini-realtime-preview')).toBeUndefined();
    expect(findPrice('openai', 'gpt-4x1')).toBeUndefined();
  });
});

describe('mergePriceTable', () => {
  it('replaces a default row with the same provider and pattern, and adds new rows', () => {
    const merged = mergePriceTable(defaultPriceTable, [
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-6*',
        inputPerMillion: 2,
        outputPerMillion: 10,
      },
      { provider: 'anthropic', model: 'claude-opus-4-7', inputPerMillion: 5, outputPerMillion: 25 },
      {
        provider: 'openai-compatible',
        model: 'together/*',
        inputPerMillion: 0.2,
        outputPerMillion: 0.6,
      },
    ]);
    expect(merged).toHaveLength(defaultPriceTable.length + 2);
    expect(costOf(million, 'anthropic', 'claude-sonnet-4-6', merged)).toBe(12);
    expect(costOf(million, 'anthropic', 'claude-opus-4-7', merged)).toBe(30);
    expect(costOf(million, 'openai-compatible', 'together/llama', merged)).toBeCloseTo(0.8, 10);
    expect(costOf(million, 'openai-compatible', 'qwen3:8b', merged)).toBe(0);
  });

  it('rejects invalid overrides with the field named', () => {
    expect(() =>
      mergePriceTable(defaultPriceTable, [
        { provider: 'openai', model: 'x', inputPerMillion: -1, outputPerMillion: 1 },
      ]),
    ).toThrow(/inputPerMillion/);
    expect(() => mergePriceTable(defaultPriceTable, { not: 'a list' })).toThrow(/invalid/);
  });
});
