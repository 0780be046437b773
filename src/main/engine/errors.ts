import type { LabErrorCode } from '../../shared/result';

/**
 * How far a failure that retrying cannot fix reaches: this rep alone, or every rep of the
 * study alike (the runner then pauses the study with the reason instead of failing each rep).
 */
export type PermanentScope = 'rep' | 'study';

/** An engine failure a person can act on; crosses the boundary as `{ code, message }`. */
export class EngineError extends Error {
  /** The LabApi error code this failure maps to. */
  readonly code: LabErrorCode;
  /** Set when running the same rep again can never succeed (runner/failures.ts reads it). */
  readonly permanent: PermanentScope | undefined;

  constructor(code: LabErrorCode, message: string, options: { permanent?: PermanentScope } = {}) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    this.permanent = options.permanent;
  }
}
