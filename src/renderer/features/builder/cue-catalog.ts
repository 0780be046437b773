/**
 * What the builder offers: cue presets, axis levels, placements, mitigations, judge providers
 * and synthetic personas. Preset and persona ids come from src/shared/catalogue.ts, the list
 * the engine's own is checked against.
 */
import { cuePresetIds, syntheticPersonas } from '../../../shared/catalogue';
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

/** The group a preset id belongs to, from its prefix. */
function presetGroup(id: string): PresetOption['group'] {
  if (id.startsWith('table2-')) return 'Table 2: framing';
  if (id.startsWith('table3-')) return 'Table 3: source';
  if (id.startsWith('table4-')) return 'Table 4: decisiveness';
  return 'Task cues (§3.1, App. E)';
}

/** Every preset the engine ships, in its order; a table preset shows without its prefix. */
export const presetOptions: readonly PresetOption[] = cuePresetIds.map((id) => ({
  id,
  label: id.replace(/^table\d-/, ''),
  group: presetGroup(id),
}));

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
  { id: 'agent-final', label: 'Agent’s final message' },
  { id: 'agent-tool-output', label: 'Agent’s tool output' },
  { id: 'narration', label: 'Narration (family transform)' },
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
      'commit-first': 'Commit first (CueLab’s own)',
    }[id],
  }));

/** Synthetic judge personas (simulated stand-ins for the paper's judges). */
export const personaOptions: readonly { id: string; label: string; about: string }[] =
  syntheticPersonas;
