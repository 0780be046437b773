/** The face of `providers/`: what the rest of the engine may use (docs/ARCHITECTURE.md). */
export {
  combineTrust,
  endpointNeedingConsent,
  endpointProblem,
  requireTrustedEndpoint,
  trustFromEnv,
} from './endpoint-trust';
export type { EndpointTrust } from './endpoint-trust';
export { checkProvider, formatProviderCheck } from './check';
export { lastProviderCheck, listProviderChecks, saveProviderCheck } from './check-store';
export { costOf, defaultPriceTable } from './pricing';
export type { PriceTable } from './pricing';
export { onProviderWaitChange, providerWaits } from './rate-limits';
export { sendableError } from './thread-messages';
export { warmProviderThread } from './threaded';
export type { ProviderThreadMessage, ProviderThreadRequest } from './thread-messages';
export { requestHash } from './replay';
export { callWithRetry } from './retry';
export type { RetryOptions } from './retry';
export {
  DEFAULT_API_KEY_ENV,
  buildProvider,
  createProvider,
  modelSettingsSchema,
} from './settings';
export type { Environment, ModelSettings } from './settings';
export { createTemperaturePolicy } from './temperature-policy';
export type { TemperaturePolicy } from './temperature-policy';
export { ProviderError } from './types';
export type {
  ChatMessage,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ReasoningOptions,
  StopReason,
  TokenUsage,
  ToolSpec,
} from './types';
export { endpointOrigin } from './endpoint-trust';
