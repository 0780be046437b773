/**
 * What a model call cost, from an editable price table. A model the table does not know
 * costs `null` (unknown), never a guessed number: a wrong cost in a study report is worse
 * than a blank one.
 */
import { z } from 'zod';
import type { TokenUsage } from './types';

/** One row of the price table, in US dollars per million tokens. */
export interface PriceEntry {
  /** Provider kind: 'anthropic', 'openai', 'openai-compatible', 'replay', … */
  provider: string;
  /** Model id, exact or a glob where `*` matches any run of characters. */
  model: string;
  inputPerMillion: number;
  outputPerMillion: number;
}

/** The table; the most specific matching row wins, a later row on a tie. */
export type PriceTable = readonly PriceEntry[];

const entry = (
  provider: string,
  model: string,
  inputPerMillion: number,
  outputPerMillion: number,
): PriceEntry => ({ provider, model, inputPerMillion, outputPerMillion });

/**
 * Defaults from the providers' public list prices (standard tier, no batch or cache
 * discounts). Models released after these were written are left out on purpose, so their
 * cost shows as unknown until someone adds the row in settings. Local servers, compatible
 * endpoints and replay cost nothing by default; add a row for a paid compatible endpoint.
 */
export const defaultPriceTable: PriceTable = [
  entry('anthropic', 'claude-opus-4-0', 15, 75),
  entry('anthropic', 'claude-opus-4-20250514', 15, 75),
  entry('anthropic', 'claude-opus-4-1*', 15, 75),
  entry('anthropic', 'claude-opus-4-5*', 5, 25),
  entry('anthropic', 'claude-opus-4-6*', 5, 25),
  // Sonnet 4.5 charges more past 200k input tokens; judge prompts stay well below that.
  entry('anthropic', 'claude-sonnet-4-0', 3, 15),
  entry('anthropic', 'claude-sonnet-4-20250514', 3, 15),
  entry('anthropic', 'claude-sonnet-4-5*', 3, 15),
  entry('anthropic', 'claude-sonnet-4-6*', 3, 15),
  entry('anthropic', 'claude-3-7-sonnet*', 3, 15),
  entry('anthropic', 'claude-haiku-4-5*', 1, 5),
  entry('anthropic', 'claude-3-5-haiku*', 0.8, 4),
  entry('openai', 'gpt-4o', 2.5, 10),
  entry('openai', 'gpt-4o-2024-08-06', 2.5, 10),
  entry('openai', 'gpt-4o-2024-11-20', 2.5, 10),
  entry('openai', 'gpt-4o-mini', 0.15, 0.6),
  entry('openai', 'gpt-4o-mini-2024-07-18', 0.15, 0.6),
  entry('openai', 'gpt-4.1', 2, 8),
  entry('openai', 'gpt-4.1-2025-04-14', 2, 8),
  entry('openai', 'gpt-4.1-mini', 0.4, 1.6),
  entry('openai', 'gpt-4.1-mini-2025-04-14', 0.4, 1.6),
  entry('openai', 'gpt-4.1-nano', 0.1, 0.4),
  entry('openai', 'gpt-4.1-nano-2025-04-14', 0.1, 0.4),
  entry('openai', 'gpt-5', 1.25, 10),
  entry('openai', 'gpt-5-2025-08-07', 1.25, 10),
  entry('openai', 'gpt-5-mini', 0.25, 2),
  entry('openai', 'gpt-5-mini-2025-08-07', 0.25, 2),
  entry('openai', 'gpt-5-nano', 0.05, 0.4),
  entry('openai', 'gpt-5-nano-2025-08-07', 0.05, 0.4),
  entry('openai', 'o3', 2, 8),
  entry('openai', 'o3-2025-04-16', 2, 8),
  entry('openai', 'o4-mini', 1.1, 4.4),
  entry('openai', 'o4-mini-2025-04-16', 1.1, 4.4),
  entry('openai-compatible', '*', 0, 0),
  entry('replay', '*', 0, 0),
  entry('synthetic', '*', 0, 0),
];

/** Compiled model patterns: the table is priced on every model call. */
const patterns = new Map<string, RegExp>();
const patternCacheLimit = 1024;

function globToRegExp(pattern: string): RegExp {
  let compiled = patterns.get(pattern);
  if (!compiled) {
    const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
    compiled = new RegExp(`^${escaped.join('.*')}$`);
    // A regular expression without the g or y flag keeps no state between tests: shareable.
    if (patterns.size >= patternCacheLimit) patterns.clear();
    patterns.set(pattern, compiled);
  }
  return compiled;
}

/** Exact rows beat globs; among globs, more literal characters beat fewer. */
function specificity(pattern: string): number {
  return pattern.includes('*') ? pattern.replaceAll('*', '').length : Number.MAX_SAFE_INTEGER;
}

/** The row that prices this provider + model, or undefined when none does. */
export function findPrice(
  provider: string,
  model: string,
  table: PriceTable = defaultPriceTable,
): PriceEntry | undefined {
  let best: PriceEntry | undefined;
  let bestScore = -1;
  for (const row of table) {
    if (row.provider !== provider || !globToRegExp(row.model).test(model)) continue;
    const score = specificity(row.model);
    if (score >= bestScore) {
      best = row;
      bestScore = score;
    }
  }
  return best;
}

/** US dollars for one call's tokens; `null` when the table has no price for the model. */
export function costOf(
  usage: TokenUsage,
  provider: string,
  model: string,
  table: PriceTable = defaultPriceTable,
): number | null {
  const price = findPrice(provider, model, table);
  if (!price) return null;
  return (
    (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) /
    1_000_000
  );
}

/** Schema for user-edited price rows (settings file, UI): anything else is rejected. */
export const priceEntrySchema = z.object({
  provider: z.string().min(1),
  model: z.string().min(1),
  inputPerMillion: z.number().nonnegative().finite(),
  outputPerMillion: z.number().nonnegative().finite(),
});

/**
 * Defaults plus validated overrides (`unknown` until parsed). An override with the same
 * provider and model pattern replaces the default row; others are added after the defaults,
 * so they also win ties. Throws an Error naming the bad field when an override is invalid.
 */
export function mergePriceTable(defaults: PriceTable, overrides: unknown): PriceEntry[] {
  const parsed = z.array(priceEntrySchema).safeParse(overrides);
  if (!parsed.success) {
    throw new Error(`The price table overrides are invalid: ${z.prettifyError(parsed.error)}`);
  }
  const keyOf = (row: PriceEntry) => `${row.provider}\u0000${row.model}`;
  const replaced = new Map(parsed.data.map((row) => [keyOf(row), row]));
  const merged = defaults.map((row) => replaced.get(keyOf(row)) ?? row);
  const present = new Set(defaults.map(keyOf));
  return [...merged, ...parsed.data.filter((row) => !present.has(keyOf(row)))];
}
