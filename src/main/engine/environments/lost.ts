/**
 * The environment a rep investigates died under it (its container was killed, removed or
 * stopped). That is an infrastructure failure, never evidence: the rep is not scored, and the
 * runner runs it again on a fresh environment.
 */

/** A rep's environment is gone or broken; whatever it answered last cannot be trusted. */
export class EnvironmentLostError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'EnvironmentLostError';
  }
}

/** True for an EnvironmentLostError, also one wrapped as another error's `cause`. */
export function isEnvironmentLost(error: unknown): error is EnvironmentLostError {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof EnvironmentLostError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
