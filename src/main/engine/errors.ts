import type { LabErrorCode } from '../../shared/result';

/** An engine failure a person can act on; crosses the boundary as `{ code, message }`. */
export class EngineError extends Error {
  /** The LabApi error code this failure maps to. */
  readonly code: LabErrorCode;

  constructor(code: LabErrorCode, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}
