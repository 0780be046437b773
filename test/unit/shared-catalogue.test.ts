/**
 * The domain code both sides need lives once in src/shared. The engine and the
 * renderer hold the very same functions (not equal copies), and the shared catalogue lists
 * exactly what the engine ships.
 */
import { describe, expect, it } from 'vitest';
import { cuePresets } from '../../src/main/engine/judge/cues/presets';
import { labelsFor } from '../../src/main/engine/mechanism-labels';
import { builtinPersonas } from '../../src/main/engine/simulation/persona-presets';
import { hashString as engineHash } from '../../src/main/engine/random';
import * as engineConditions from '../../src/main/engine/runner/conditions';
import { personaOptions, presetOptions } from '../../src/renderer/features/builder/cue-catalog';
import * as rendererConditions from '../../src/renderer/features/builder/conditions';
import {
  harmfulMechanisms,
  helpfulMechanisms,
} from '../../src/renderer/features/replay/mechanisms';
import { cuePresetIds, syntheticPersonas } from '../../src/shared/catalogue';
import * as shared from '../../src/shared/condition-keys';

describe('shared domain code', () => {
  it('gives the engine and the renderer one set of condition-key functions', () => {
    for (const name of ['conditionKey', 'cueKey', 'uncuedKey'] as const) {
      expect(engineConditions[name]).toBe(shared[name]);
      expect(rendererConditions[name]).toBe(shared[name]);
    }
    expect(rendererConditions.mitigationSetKey).toBe(shared.mitigationSetKey);
    expect(engineHash).toBe(shared.hashString);
  });

  it('computes the keys the engine stores', () => {
    const custom = { kind: 'custom', severity: 'UNMET', leniency: 'MET' } as const;
    expect(shared.cueKey(custom)).toBe('custom:0de7bafa');
    expect(
      shared.conditionKey(
        { kind: 'axes', axes: { source: 'reviewer', decisiveness: 'likely' } },
        'user',
        [{ kind: 'builtin', id: 'guard' }],
      ),
    ).toBe('axes:decisiveness=likely,source=reviewer@user+guard');
    // FNV-1a of the empty string is its offset basis.
    expect(shared.hashString('')).toBe(0x811c9dc5);
  });

  it('lists exactly the engine’s cue presets and personas, in its order', () => {
    expect(cuePresetIds).toEqual(cuePresets.map((preset) => preset.id));
    expect(presetOptions.map((option) => option.id)).toEqual(cuePresetIds);
    expect(syntheticPersonas.map((persona) => persona.id)).toEqual(
      builtinPersonas().map((persona) => persona.id),
    );
    expect(personaOptions).toBe(syntheticPersonas);
  });

  it('gives the annotator the metajudge’s mechanism labels', () => {
    expect(harmfulMechanisms.map((entry) => entry.id)).toEqual([...labelsFor('harmful')]);
    expect(helpfulMechanisms.map((entry) => entry.id)).toEqual([...labelsFor('helpful')]);
  });
});
