/**
 * Errors cross every process boundary as data, never as thrown stacks
 * (ARCHITECTURE.md, "The contract").
 */

/** Machine-readable reason a LabApi call failed; the message says what to do. */
export type LabErrorCode =
  | 'bad_request'
  | 'unknown_method'
  | 'unauthorized'
  | 'not_found'
  | 'schema_too_new'
  | 'store_unreadable'
  | 'engine_unreachable'
  | 'bad_response'
  /** The work was cancelled before it finished (cancelFileWork, a client that hung up). */
  | 'cancelled'
  | 'internal';

/** A failure a person can act on: `message` names the problem and the fix. */
export interface LabError {
  /** Stable code for programs to branch on. */
  code: LabErrorCode;
  /** One or two sentences for a person. */
  message: string;
  /** Field-level problems of a rejected request, `path` in dotted form. */
  issues?: { path: string; message: string }[];
}

/** The outcome of every LabApi call. */
export type LabResult<T> = { ok: true; value: T } | { ok: false; error: LabError };

/** Wraps a value as a successful result. */
export function success<T>(value: T): LabResult<T> {
  return { ok: true, value };
}

/** Wraps an error as a failed result. */
export function failure<T = never>(
  code: LabErrorCode,
  message: string,
  issues?: LabError['issues'],
): LabResult<T> {
  return { ok: false, error: issues ? { code, message, issues } : { code, message } };
}
