/**
 * Every provider a judge's settings can build, one line each. Adding a provider is its own
 * file (a descriptor: catalogue entry, prices, factory), a line here and its entry in
 * src/shared/catalogue/providers.ts. Replay and the synthetic judge are built another way (from
 * a recording, from a persona) and so are not listed.
 */
import type { ModelProviderKind } from '../../../shared/catalogue/providers';
import { anthropicProvider } from './anthropic';
import type { ProviderDescriptor } from './descriptor';
import { openaiProvider } from './openai';
import { openaiCompatibleProvider } from './openai-compatible';

/** The descriptors, in the order the default price table lists their rows. */
export const providerRegistry: readonly ProviderDescriptor[] = [
  anthropicProvider,
  openaiProvider,
  openaiCompatibleProvider,
];

/** The descriptor of a kind the settings schema has checked. */
export function providerDescriptor(kind: ModelProviderKind): ProviderDescriptor {
  const descriptor = providerRegistry.find((candidate) => candidate.entry.kind === kind);
  if (!descriptor) throw new Error(`No provider descriptor is registered for ${kind}.`);
  return descriptor;
}
