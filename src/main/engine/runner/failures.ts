/**
 * What a failed rep means for its job, decided in one place: retry it (transient, or its
 * environment died), fail it for good (a request that can never succeed), pause the study
 * (every rep would fail alike), or stop writing (the database itself failed).
 */
import { EngineError } from '../errors';
import { isEnvironmentLost } from '../environments';
import { ProviderError } from '../providers';
import { isStorageFailure } from '../store';

/** The runner's answer to one failure. */
export type FailureAction =
  /** Back to the queue after a backoff; counts an attempt. */
  | { kind: 'retry'; delayMs: number; message: string }
  /** Failed for good at once: retrying the same request cannot succeed. */
  | { kind: 'fail'; message: string }
  /** The study is paused with this reason; the job goes back to the queue unharmed. */
  | { kind: 'pause'; message: string }
  /** The workspace database cannot be written: stop and report (runner.ts). */
  | { kind: 'storage'; error: unknown };

/** Backoff after failed attempt `attempts` (1-based): 1 s, 2 s, 4 s … capped at 60 s. */
export function retryDelayMs(attempts: number, retryAfterMs?: number): number {
  return Math.max(retryAfterMs ?? 0, Math.min(60_000, 1000 * 2 ** (attempts - 1)));
}

/** Decides what failure `error` of a job at attempt `attempts` leads to. */
export function failureAction(error: unknown, attempts: number): FailureAction {
  const message = error instanceof Error ? error.message : String(error);
  if (isStorageFailure(error)) return { kind: 'storage', error };
  if (isEnvironmentLost(error)) {
    // Infrastructure, not the judge: retried at once on a fresh container; the stored
    // provider calls are replayed, so only the call in flight (if any) is made again.
    return { kind: 'retry', delayMs: 0, message: `environment lost: ${message}` };
  }
  if (error instanceof ProviderError) {
    if (error.kind === 'auth' || error.kind === 'not_found') {
      // A rejected key or unknown model fails every rep alike: stop and say why.
      return { kind: 'pause', message };
    }
    if (error.kind === 'bad_response') {
      // One garbled answer was retried already; every retry garbled too means the endpoint
      // is not a compatible API (a wrong base URL), which every rep would meet alike.
      return { kind: 'pause', message };
    }
    if (!error.retryable) return { kind: 'fail', message };
    return { kind: 'retry', delayMs: retryDelayMs(attempts, error.retryAfterMs), message };
  }
  if (error instanceof EngineError && error.code === 'engine_unreachable') {
    return { kind: 'pause', message };
  }
  return { kind: 'retry', delayMs: retryDelayMs(attempts), message };
}
