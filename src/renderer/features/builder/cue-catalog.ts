/**
 * What the builder offers: cue presets, axis levels, placements, mitigations, judge providers
 * and synthetic personas. The renderer may not import the engine, so the preset ids and
 * persona ids are copied from src/main/engine/judge/cues/presets.ts and
 * src/main/engine/simulation/persona-presets.ts; the engine still validates every
 * spec, so a stale copy shows up as an estimate error, never as a silently wrong study.
 */
import {
  builtinMitigationIdSchema,
  cueDecisivenessSchema,
  cueFormSchema,
  cueFramingSchema,
  cueSourceSchema,
  cueStrengthSchema,
  type BuiltinMitigationId,
  type CueAxes,
} from '../../../shared/cue-spec';
import type { StudyJudge } from '../../../shared/study-spec';

/** A cue preset as the builder lists it. */
export interface PresetOption {
  /** Preset id as a spec names it, e.g. `table3-reviewer`. */
  id: string;
  /** Short label for the checkbox. */
  label: string;
  /** Where in the paper it comes from. */
  group:
    'Task cues (§3.1, App. E)' | 'Table 2: framing' | 'Table 3: source' | 'Table 4: decisiveness';
}

/** Every preset the engine ships, in its order. */
export const presetOptions: readonly PresetOption[] = [
  { id: 'strong', label: 'strong', group: 'Task cues (§3.1, App. E)' },
  { id: 'strong-senior', label: 'strong-senior', group: 'Task cues (§3.1, App. E)' },
  { id: 'strong-figures', label: 'strong-figures', group: 'Task cues (§3.1, App. E)' },
  { id: 'weak', label: 'weak', group: 'Task cues (§3.1, App. E)' },
  ...[
    'belief-declarative',
    'belief-imperative',
    'compliance-declarative',
    'compliance-imperative',
  ].map((name): PresetOption => ({ id: `table2-${name}`, label: name, group: 'Table 2: framing' })),
  ...['domain-expert', 'reviewer', 'unattributed', 'automated-checker', 'prior-llm-judge'].map(
    (name): PresetOption => ({ id: `table3-${name}`, label: name, group: 'Table 3: source' }),
  ),
  ...['definitely', 'likely', 'appears', 'might'].map((name): PresetOption => ({
    id: `table4-${name}`,
    label: name,
    group: 'Table 4: decisiveness',
  })),
];

/** A cue axis the builder can vary. */
export type CueAxis = keyof CueAxes;

/** The axes in the order the grid shows them, each with its levels. */
export const cueAxes: readonly { axis: CueAxis; label: string; levels: readonly string[] }[] = [
  { axis: 'framing', label: 'Framing', levels: cueFramingSchema.options },
  { axis: 'form', label: 'Form', levels: cueFormSchema.options },
  { axis: 'source', label: 'Source', levels: cueSourceSchema.options },
  { axis: 'decisiveness', label: 'Decisiveness', levels: cueDecisivenessSchema.options },
  { axis: 'strength', label: 'Strength', levels: cueStrengthSchema.options },
];

/** Placements the builder offers (App. K, Table 8). */
export const placementOptions: readonly { id: string; label: string }[] = [
  { id: 'system', label: 'System postscript' },
  { id: 'user', label: 'User turn' },
  { id: 'assistant', label: 'Assistant turn' },
  { id: 'assistant-x5', label: 'Assistant ×5' },
  { id: 'assistant-x25', label: 'Assistant ×25' },
];

/** The built-in mitigations (§3.4). */
export const mitigationOptions: readonly { id: BuiltinMitigationId; label: string }[] =
  builtinMitigationIdSchema.options.map((id) => ({
    id,
    label: {
      guard: 'Guard',
      'cite-evidence': 'Cite evidence',
      'learned-skill': 'Learned skill',
      'sufficiency-gate': 'Sufficiency gate',
    }[id],
  }));

/** Judge providers, with the model a new judge starts from. */
export const providerOptions: readonly {
  id: StudyJudge['provider'];
  label: string;
  defaultModel: string;
}[] = [
  { id: 'synthetic', label: 'Synthetic', defaultModel: 'synthetic' },
  { id: 'anthropic', label: 'Anthropic', defaultModel: 'claude-sonnet-4-5' },
  { id: 'openai', label: 'OpenAI', defaultModel: 'gpt-4.1' },
  { id: 'openai-compatible', label: 'OpenAI-compatible', defaultModel: 'local-model' },
];

/** Synthetic judge personas (simulated stand-ins for the paper's judges). */
export const personaOptions: readonly { id: string; label: string; about: string }[] = [
  {
    id: 'deferential-frontier',
    label: 'Deferential frontier',
    about: 'Opus-4.7-like: investigates thoroughly, then defers; the highest harmful flip rate.',
  },
  {
    id: 'robust-frontier',
    label: 'Robust frontier',
    about: 'Sonnet-4.6-like: rarely moved by the cue.',
  },
  {
    id: 'small-open-a',
    label: 'Small open-weight A',
    about: 'Qwen3-235B-like: moderately susceptible; flips spread into hallucination.',
  },
  {
    id: 'small-open-b',
    label: 'Small open-weight B',
    about: 'GPT-OSS-120B-like: susceptible and often stops short.',
  },
];

/** Model ids with a known price, offered as suggestions. */
export const modelSuggestions: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5'],
  openai: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-5'],
};
