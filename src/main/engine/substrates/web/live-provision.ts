/**
 * Choosing a rep's web backend: the live one (live.ts) for a web item when the user's own
 * environment turns it on, with a fresh recording; otherwise none (the item's snapshot).
 */
import type { EnvironmentSpec } from '../../../../shared/suite-format';
import type { EndpointTrust } from '../../providers';
import type { WebBackend } from './environment';
import { liveWebBackend, liveWebSettingsFromEnv, type WebRecording } from './live';

/** A live backend for one rep and what it will record. */
export interface LiveWeb {
  backend: WebBackend;
  recording: WebRecording;
}

/**
 * The live backend for a rep of an item with `spec`, or undefined when the item has no web or
 * the user has not turned the live web on. Throws when it is on but misconfigured.
 */
export function liveWebFor(
  spec: EnvironmentSpec,
  env: Readonly<Record<string, string | undefined>>,
  trust: EndpointTrust,
): LiveWeb | undefined {
  if (!spec.web) return undefined;
  const settings = liveWebSettingsFromEnv(env);
  if (!settings) return undefined;
  const recording: WebRecording = { searches: [], pages: [] };
  return { backend: liveWebBackend(settings, { env, trust, recording }), recording };
}
