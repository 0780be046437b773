/**
 * What a model call cost, from an editable price table. A model the table does not know
 * costs `null` (unknown), never a guessed number: a wrong cost in a study report is worse
 * than a blank one.
 */
import { z } from 'zod';
import { providerCatalogue } from '../../../shared/catalogue/providers';
import { price, type ModelPrice } from './descriptor';
import { providerRegistry } from './registry';
import { REPLAY_KIND } from './replay';
import type { TokenUsage } from './types';

/** One row of the price table, in US dollars per million tokens. */
export interface PriceEntry extends ModelPrice {
  /** Provider kind, as a spec or a recording names it. */
  provider: string;
  /** Model id, exact or a glob where `*` matches any run of characters. */
  model: string;
}

/** The table; the most specific matching row wins, a later row on a tie. */
export type PriceTable = readonly PriceEntry[];

/**
 * Defaults: each registered provider's list prices (its descriptor), then replay and every
 * simulation at nothing, since neither calls a paid API. Local servers and compatible endpoints
 * cost nothing by default too; add a row for a paid compatible endpoint in settings.
 */
export const defaultPriceTable: PriceTable = [
  ...providerRegistry.flatMap((descriptor) =>
    descriptor.prices.map((row) => ({ provider: descriptor.entry.kind, ...row })),
  ),
  { provider: REPLAY_KIND, ...price('*', 0, 0) },
  ...providerCatalogue
    .filter((entry) => entry.simulated)
    .map((entry) => ({ provider: entry.kind, ...price('*', 0, 0) })),
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
  // Cache reads and writes are shares of the input tokens, each at its own price.
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - read - write);
  return (
    (uncached * price.inputPerMillion +
      write * (price.cacheWritePerMillion ?? price.inputPerMillion) +
      read * (price.cacheReadPerMillion ?? price.inputPerMillion) +
      usage.outputTokens * price.outputPerMillion) /
    1_000_000
  );
}

/** Schema for user-edited price rows (settings file, UI): anything else is rejected. */
export const priceEntrySchema = z.object({
  provider: z.string().min(1),
  model: z.string().min(1),
  inputPerMillion: z.number().nonnegative().finite(),
  outputPerMillion: z.number().nonnegative().finite(),
  cacheReadPerMillion: z.number().nonnegative().finite().optional(),
  cacheWritePerMillion: z.number().nonnegative().finite().optional(),
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
