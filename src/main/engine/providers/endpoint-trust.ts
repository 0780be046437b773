/**
 * Where keys may go. A spec, bundle or voters file names a judge's
 * `baseUrl` and `apiKeyEnv`, and it may be written by a stranger: run as-is, it would send the
 * user's key (or any environment variable it names) to the stranger's server. So a key goes
 * only to its provider's own host unless the user confirmed the endpoint (CLI
 * `--trust-endpoint URL`, the window's launch confirmation, or `CUELAB_TRUSTED_ENDPOINTS` in
 * the user's own environment), and `apiKeyEnv` may name only a key-shaped variable
 * (`*_API_KEY`, `*_TOKEN`) or one the user listed. Nothing a file brings is ever trusted.
 */
import { findProviderEntry } from '../../../shared/catalogue/providers';
import { isKeyName, keyNameRule } from '../../../shared/secrets';
import { ProviderError } from './types';

/** What the user has allowed beyond the providers' own hosts. */
export interface EndpointTrust {
  /** Origins (scheme://host:port) the user confirmed; a path after the origin is ignored. */
  endpoints: readonly string[];
  /** Extra environment variable names a judge may read its key from. */
  keyEnvNames: readonly string[];
}

/** The variable listing trusted endpoints (comma-separated) in the user's own environment. */
export const TRUSTED_ENDPOINTS_ENV = 'CUELAB_TRUSTED_ENDPOINTS';

/** The variable listing extra key variable names (comma-separated). */
export const ALLOWED_KEY_ENV_ENV = 'CUELAB_ALLOWED_KEY_ENV';

/** `scheme://host:port` of a URL, normalised; undefined for something that is not one. */
export function endpointOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The trust the user's own environment grants (`CUELAB_TRUSTED_ENDPOINTS`, …). */
export function trustFromEnv(env: Readonly<Record<string, string | undefined>>): EndpointTrust {
  return {
    endpoints: list(env[TRUSTED_ENDPOINTS_ENV]),
    keyEnvNames: list(env[ALLOWED_KEY_ENV_ENV]),
  };
}

/** Both grants together. */
export function combineTrust(...grants: readonly EndpointTrust[]): EndpointTrust {
  return {
    endpoints: grants.flatMap((grant) => grant.endpoints),
    keyEnvNames: grants.flatMap((grant) => grant.keyEnvNames),
  };
}

/** The fields of a judge (or voter) that decide where its requests and key go. */
export interface EndpointSettings {
  provider: string;
  baseUrl?: string | undefined;
  apiKeyEnv?: string | undefined;
}

/** The endpoint of `settings` that needs the user's confirmation, or undefined. */
export function endpointNeedingConsent(
  settings: EndpointSettings,
  trust: EndpointTrust,
): string | undefined {
  const entry = findProviderEntry(settings.provider);
  // A simulation sends nothing anywhere, whatever baseUrl a file gives it.
  if (entry?.simulated || settings.baseUrl === undefined) return undefined;
  const origin = endpointOrigin(settings.baseUrl) ?? settings.baseUrl;
  const trusted = new Set([
    ...(entry?.trustedHosts ?? []),
    ...trust.endpoints.map((endpoint) => endpointOrigin(endpoint) ?? endpoint),
  ]);
  return trusted.has(origin) ? undefined : origin;
}

/** Why `settings` may not run under `trust`, in words, or undefined when it may. */
export function endpointProblem(
  settings: EndpointSettings,
  trust: EndpointTrust,
): string | undefined {
  const name = settings.apiKeyEnv;
  if (name !== undefined && !isKeyName(name) && !trust.keyEnvNames.includes(name)) {
    return (
      `apiKeyEnv ${name} is not a key variable (${keyNameRule}); ` +
      `to read a key from it anyway, list it: --allow-key-env ${name} or ${ALLOWED_KEY_ENV_ENV}`
    );
  }
  const endpoint = endpointNeedingConsent(settings, trust);
  if (endpoint !== undefined) {
    return (
      `${endpoint} is not ${settings.provider}'s own API host, and sending your key and ` +
      `prompts there needs your confirmation: --trust-endpoint ${endpoint} (cuelab run), ` +
      `confirm it at launch (the window), or add it to ${TRUSTED_ENDPOINTS_ENV}`
    );
  }
  return undefined;
}

/**
 * Throws a non-retryable ProviderError('auth') before any request when `settings` would send a
 * key (or prompts) where the user has not allowed: the runner then pauses the study with it.
 */
export function requireTrustedEndpoint(
  settings: EndpointSettings & { id?: string },
  trust: EndpointTrust,
): void {
  const problem = endpointProblem(settings, trust);
  if (problem !== undefined) throw new ProviderError('auth', problem);
}
