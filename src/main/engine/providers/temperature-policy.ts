/**
 * Which models reject `temperature`. App. R: "Opus-4.7 rejects the temperature parameter, so
 * the provider default applies" — the parameter is deprecated for that family and answered
 * with a validation error. Rather than a hard-coded model list, the harness detects the
 * provider's validation error once, retries without temperature, and remembers it here so
 * later calls for that model never send one.
 */

/** One remembered rejection: this provider kind's model takes no temperature. */
export interface TemperatureRejection {
  providerKind: string;
  model: string;
}

/** The store consulted before every call and told about every rejection. */
export interface TemperaturePolicy {
  /** False once this provider kind + model has rejected temperature. */
  accepts(providerKind: string, model: string): boolean;
  /** Remembers a rejection (idempotent); persists when a callback was given. */
  markRejected(providerKind: string, model: string): void;
  /** Every remembered rejection, in the order first seen. */
  rejections(): TemperatureRejection[];
}

/** How a policy starts and where it saves. */
export interface TemperaturePolicyOptions {
  /** Rejections remembered from earlier runs (e.g. loaded from the workspace). */
  initial?: Iterable<TemperatureRejection>;
  /** Called with the full list after each new rejection, to save it. */
  persist?: (rejections: TemperatureRejection[]) => void;
}

function keyOf(providerKind: string, model: string): string {
  return JSON.stringify([providerKind, model]);
}

/** An in-memory TemperaturePolicy with an optional persistence callback. */
export function createTemperaturePolicy(options: TemperaturePolicyOptions = {}): TemperaturePolicy {
  const rejected = new Map<string, TemperatureRejection>();
  for (const entry of options.initial ?? []) {
    rejected.set(keyOf(entry.providerKind, entry.model), { ...entry });
  }
  return {
    accepts: (providerKind, model) => !rejected.has(keyOf(providerKind, model)),
    markRejected(providerKind, model) {
      const key = keyOf(providerKind, model);
      if (rejected.has(key)) return;
      rejected.set(key, { providerKind, model });
      options.persist?.([...rejected.values()]);
    },
    rejections: () => [...rejected.values()],
  };
}

/**
 * The process-wide policy callWithRetry uses when none is passed, so a rejection is learnt
 * once per process even by callers that forget to share one. Tests pass their own.
 */
export const processTemperaturePolicy: TemperaturePolicy = createTemperaturePolicy();
