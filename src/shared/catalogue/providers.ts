/**
 * The providers a judge can name, as data both sides read: the study spec's `provider` field,
 * the Builder's judge rows, Settings' key table, endpoint trust, the price table and the CLI's
 * help all come from here, so a new provider is one entry here plus its engine descriptor
 * (engine/providers/registry.ts), and the window needs no change to offer it.
 */
import { z } from 'zod';

/** A judge setting beyond model and temperature that some providers take (App. R). */
export type ProviderOption = 'maxTokens' | 'thinking' | 'reasoningEffort' | 'dialect';

/**
 * How an OpenAI-compatible server returns tool calls: `structured` (`tool_calls`, a server run
 * with a tool parser), `hermes` (`<tool_call>{…}</tool_call>` in the text: Hermes, Qwen),
 * `json` (bare JSON objects in the text), or `auto`: whichever each reply shows.
 */
export const toolDialectSchema = z.enum(['auto', 'structured', 'hermes', 'json']);

/** One provider as a person picks it and as the engine checks it. */
export interface ProviderCatalogueEntry<Kind extends string = string> {
  /** What a spec's `provider` field says. */
  kind: Kind;
  /** How the window names it. */
  label: string;
  /** The variable its key is read from unless the judge's `apiKeyEnv` names another. */
  keyVariable: string | null;
  /** False when a judge may run without a key (a local server that checks none). */
  keyRequired: boolean;
  /** What an empty key-variable field suggests. */
  keyPlaceholder: string;
  /** API origins its key belongs to; a `baseUrl` anywhere else needs the user's consent. */
  trustedHosts: readonly string[];
  /** True when there is no public API to fall back to, so a judge must give a `baseUrl`. */
  baseUrlRequired: boolean;
  /** A `baseUrl` to show as an example. */
  baseUrlExample: string | null;
  /** The model a new judge of this provider starts from. */
  defaultModel: string;
  /** Model ids with a known price, offered as suggestions. */
  suggestedModels: readonly string[];
  /** The options a judge of this provider may set; the others are refused by the spec. */
  options: readonly ProviderOption[];
  /** `max_tokens` sent when a judge leaves it open; null: the provider's own default. */
  defaultMaxTokens: number | null;
  /**
   * An offline simulation: no key, a persona instead of a model, and its results marked
   * simulated everywhere.
   */
  simulated: boolean;
  /** Which judges use it, in Settings' words. */
  usedBy: string;
}

const entries = [
  {
    kind: 'anthropic',
    label: 'Anthropic',
    keyVariable: 'ANTHROPIC_API_KEY',
    keyRequired: true,
    keyPlaceholder: 'ANTHROPIC_API_KEY',
    trustedHosts: ['https://api.anthropic.com'],
    baseUrlRequired: false,
    baseUrlExample: null,
    defaultModel: 'claude-sonnet-4-5',
    suggestedModels: ['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5'],
    options: ['maxTokens', 'thinking'],
    // The Messages API requires max_tokens (App. R: 8192 where the paper sets none).
    defaultMaxTokens: 8192,
    simulated: false,
    usedBy: 'judges with provider "anthropic"',
  },
  {
    kind: 'openai',
    label: 'OpenAI',
    keyVariable: 'OPENAI_API_KEY',
    keyRequired: true,
    keyPlaceholder: 'OPENAI_API_KEY',
    trustedHosts: ['https://api.openai.com'],
    baseUrlRequired: false,
    baseUrlExample: null,
    defaultModel: 'gpt-4.1',
    suggestedModels: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-5'],
    options: ['maxTokens', 'reasoningEffort'],
    defaultMaxTokens: null,
    simulated: false,
    usedBy: 'judges with provider "openai"',
  },
  {
    kind: 'openai-compatible',
    label: 'OpenAI-compatible',
    keyVariable: null,
    keyRequired: false,
    keyPlaceholder: 'OPENAI_API_KEY',
    // Every compatible server is someone's own: none is trusted until the user says so.
    trustedHosts: [],
    baseUrlRequired: true,
    baseUrlExample: 'http://localhost:11434/v1',
    defaultModel: 'local-model',
    suggestedModels: [],
    options: ['maxTokens', 'reasoningEffort', 'dialect'],
    defaultMaxTokens: null,
    simulated: false,
    usedBy:
      'vLLM, SGLang, Ollama, LM Studio, llama.cpp: the key named by the judge’s apiKeyEnv, if any',
  },
  {
    kind: 'synthetic',
    label: 'Synthetic',
    keyVariable: null,
    keyRequired: false,
    keyPlaceholder: '',
    trustedHosts: [],
    baseUrlRequired: false,
    baseUrlExample: null,
    defaultModel: 'synthetic',
    suggestedModels: [],
    options: [],
    defaultMaxTokens: null,
    simulated: true,
    usedBy: 'offline simulation: no key; always marked simulated',
  },
] as const satisfies readonly ProviderCatalogueEntry[];

type Entry = (typeof entries)[number];

/** Every provider a study judge may name. */
type JudgeProviderKind = Entry['kind'];

/** The providers that call a model API (every one but the simulation). */
export type ModelProviderKind = Extract<Entry, { simulated: false }>['kind'];

/** The catalogue, in the order Settings lists it. */
export const providerCatalogue: readonly ProviderCatalogueEntry<JudgeProviderKind>[] = entries;

function isModelProvider(entry: Entry): entry is Extract<Entry, { simulated: false }> {
  return !entry.simulated;
}

/** A judge's `provider` field. */
export const judgeProviderKindSchema = z.enum(entries.map((entry) => entry.kind));

/** The `provider` field of model settings and meta-judge voters (no simulation there). */
export const modelProviderKindSchema = z.enum(
  entries.filter(isModelProvider).map((entry) => entry.kind),
);

const byKind = new Map<string, ProviderCatalogueEntry<JudgeProviderKind>>(
  entries.map((entry) => [entry.kind, entry]),
);

/** The entry of a kind the schemas have checked. */
export function providerEntry<Kind extends JudgeProviderKind>(
  kind: Kind,
): Extract<Entry, { kind: Kind }> {
  const entry = byKind.get(kind);
  if (!entry) throw new Error(`The provider catalogue has no entry for ${kind}.`);
  // The map is keyed by each entry's own kind, so the entry found is this kind's.
  return entry as Extract<Entry, { kind: Kind }>;
}

/** True when a judge of `kind` may set `option`. */
export function takesOption(kind: JudgeProviderKind, option: ProviderOption): boolean {
  return findProviderEntry(kind)?.options.includes(option) ?? false;
}

/** The entry of an unchecked kind (a bundle, a price row), or undefined. */
export function findProviderEntry(
  kind: string,
): ProviderCatalogueEntry<JudgeProviderKind> | undefined {
  return byKind.get(kind);
}

/** The kinds that are offline simulations (today the synthetic judge). */
type SimulatedProviderKind = Extract<Entry, { simulated: true }>['kind'];

/**
 * True for a provider that is an offline simulation. Every place that treats the simulation
 * apart asks this rather than spelling its kind, so the kind is written only in its entry.
 */
export function isSimulatedProvider(kind: string): kind is SimulatedProviderKind {
  return findProviderEntry(kind)?.simulated ?? false;
}

function isSimulationEntry(entry: Entry): entry is Extract<Entry, { simulated: true }> {
  return entry.simulated;
}

function theSimulation(): Extract<Entry, { simulated: true }> {
  const entry = entries.find(isSimulationEntry);
  if (!entry) throw new Error('The provider catalogue has no simulation.');
  return entry;
}

/** The simulation a new judge starts as: it needs no key, so a first study runs at once. */
export const simulatedProvider = theSimulation();
