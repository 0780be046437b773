/**
 * What a failed rep means for its job, decided in one place: retry it (transient, or its
 * environment died), fail it for good (a request that can never succeed), pause the study
 * (every rep would fail alike), or stop writing (the database itself failed).
 */
import { EngineError, type PermanentScope } from '../errors';
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

/** Attempts an error the runner cannot classify gets: the first and one retry. */
export const unknownErrorAttempts = 2;

/** Node system error codes that name a passing condition of the machine (disk, network). */
const transientSystemCodes = new Set([
  'ENOSPC',
  'EIO',
  'EAGAIN',
  'EBUSY',
  'EMFILE',
  'ENFILE',
  'ENOMEM',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ESOCKETTIMEDOUT',
]);

/**
 * True for a failure of the machine rather than of the rep: a system error such as a full
 * disk or a dropped connection, or the Docker engine answering 5xx (its own trouble), also
 * when wrapped as another error's `cause`.
 */
export function isTransientFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, statusCode } = current as { code?: unknown; statusCode?: unknown };
    if (typeof code === 'string' && transientSystemCodes.has(code)) return true;
    if (typeof statusCode === 'number' && statusCode >= 500) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Why retrying the same rep can never succeed, or undefined when it might: an error marked
 * permanent, or a request the engine refused as wrong for this item (`bad_request`,
 * `not_found`: a spec that does not fit the item, an item without probes for the synthetic
 * judge), which the next attempt would build from the same rows and meet again.
 */
function permanentScope(error: unknown): PermanentScope | undefined {
  if (!(error instanceof EngineError)) return undefined;
  if (error.permanent) return error.permanent;
  if (error.code === 'bad_request' || error.code === 'not_found') return 'rep';
  return undefined;
}

/** Decides what failure `error` of a job at attempt `attempts` (1-based) leads to. */
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
  const scope = permanentScope(error);
  if (scope === 'study') return { kind: 'pause', message };
  if (scope === 'rep') return { kind: 'fail', message: `cannot succeed on retry: ${message}` };
  if (isTransientFailure(error)) {
    return { kind: 'retry', delayMs: retryDelayMs(attempts), message };
  }
  // Not known to pass with time: one more try covers a fluke, more would repeat the cost of
  // a container start for an error that is most likely the same every time.
  if (attempts >= unknownErrorAttempts) return { kind: 'fail', message };
  return { kind: 'retry', delayMs: retryDelayMs(attempts), message };
}
