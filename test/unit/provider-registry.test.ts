/**
 * The provider catalogue (src/shared) and the engine's registry describe the same providers:
 * a catalogue entry without a descriptor would be offered by the window and then fail to run.
 */
import { describe, expect, it } from 'vitest';
import { defaultPriceTable } from '../../src/main/engine/providers/pricing';
import { providerRegistry } from '../../src/main/engine/providers/registry';
import { createProvider, modelSettingsSchema } from '../../src/main/engine/providers/settings';
import { modelProviderKindSchema, providerCatalogue } from '../../src/shared/catalogue/providers';

describe('the provider registry', () => {
  it('has one descriptor per model provider of the catalogue, holding its entry', () => {
    const kinds = providerRegistry.map((descriptor) => descriptor.entry.kind);
    expect(kinds).toEqual(modelProviderKindSchema.options);
    for (const descriptor of providerRegistry)
      expect(descriptor.entry).toBe(
        providerCatalogue.find((entry) => entry.kind === descriptor.entry.kind),
      );
  });

  it('builds each kind from settings, reporting that kind', () => {
    for (const entry of providerCatalogue.filter((candidate) => !candidate.simulated)) {
      const settings = modelSettingsSchema.parse({
        provider: entry.kind,
        model: entry.defaultModel,
        baseUrl: entry.baseUrlExample ?? undefined,
      });
      const env = entry.keyVariable ? { [entry.keyVariable]: 'sk-test' } : {};
      expect(createProvider(settings, env).kind).toBe(entry.kind);
    }
  });

  it('has a default price row for every catalogue kind', () => {
    for (const entry of providerCatalogue)
      expect(defaultPriceTable.some((row) => row.provider === entry.kind)).toBe(true);
  });
});
