/**
 * Any server speaking OpenAI's Chat Completions (vLLM, Ollama, LM Studio, llama.cpp): the
 * OpenAI adapter pointed at the judge's `baseUrl`, sending `max_tokens` as these servers expect.
 */
import { providerEntry } from '../../../shared/catalogue/providers';
import { price, type ProviderDescriptor } from './descriptor';
import { createOpenAIProvider } from './openai';

const compatible = providerEntry('openai-compatible');

/** The compatible servers' descriptor (registry.ts). */
export const openaiCompatibleProvider: ProviderDescriptor = {
  entry: compatible,
  // A local server costs nothing; add a price row in settings for a paid endpoint.
  prices: [price('*', 0, 0)],
  create: (connection) =>
    createOpenAIProvider({
      ...connection,
      kind: compatible.kind,
      dialect: connection.dialect ?? 'auto',
    }),
};
