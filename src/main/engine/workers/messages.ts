/**
 * What crosses between the engine's thread and a worker thread (structured clone): a job
 * request, its progress, and its outcome. An error crosses as its code and message (and the
 * bad rows it lists), so an `EngineError` thrown in a worker reaches the caller as the same
 * `EngineError`.
 */
import type { LabErrorCode } from '../../../shared/result';

/** How far a job has come, for a person waiting on it. */
export interface JobProgress {
  readonly done: number;
  readonly total: number;
  /** What is being done now ("drawing flips"). */
  readonly step?: string;
}

/** The engine's thread to a worker: run `job` on `input`. */
export interface JobRequest {
  readonly id: number;
  readonly job: string;
  readonly input: unknown;
  /** Answer with the value as JSON bytes (json-chunks.ts), transferred, not cloned. */
  readonly encode?: boolean;
  /**
   * The real folder paths a served request may read (confined-read.ts): the job's file reads
   * are checked on their open descriptors against these, as on the engine's thread.
   */
  readonly confinedTo?: readonly string[];
}

/** A worker to the engine's thread, about the job `id`. */
export type JobMessage =
  | { readonly id: number; readonly kind: 'progress'; readonly progress: JobProgress }
  | { readonly id: number; readonly kind: 'done'; readonly value: unknown }
  | { readonly id: number; readonly kind: 'encoded'; readonly chunks: readonly Uint8Array[] }
  | {
      readonly id: number;
      readonly kind: 'failed';
      readonly error: {
        readonly engine: boolean;
        readonly code: LabErrorCode;
        readonly message: string;
        readonly name: string;
        /** The rows a rejected file got wrong (a results or labels import lists each). */
        readonly problems?: readonly string[];
      };
    };

/** What a worker is started with. */
export interface WorkerStart {
  readonly databasePath: string;
  /**
   * Run below the engine's thread (thread-priority.ts): heavy lanes do; the reads lane, whose
   * short pages a person waits on, keeps the normal priority.
   */
  readonly lowPriority: boolean;
}
