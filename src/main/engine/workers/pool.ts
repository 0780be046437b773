/**
 * Heavy work off the engine's thread. The thread that answers requests (the window's, the CLI's)
 * and runs the runner hands long jobs to worker threads, each with its own connection to the
 * workspace database, and stays free meanwhile. Work goes by lane: one worker per lane runs its
 * jobs in order, so report tables (whose caches live in their worker) never race, and a long
 * export does not hold up a table. A job can be cancelled (an abort signal): queued, it is
 * dropped; running, its worker is stopped and a fresh one takes the next job. A worker that
 * dies fails only the job it ran, naming it; the next job starts a new one.
 */
import type { Worker } from 'node:worker_threads';
import { EngineError } from '../errors';
import type { WorkerJobs } from './jobs';
import { startWorkerThread } from './locate';
import type { JobMessage, JobProgress, JobRequest, WorkerStart } from './messages';

/**
 * The lanes: report tables (drawing, re-drawing), files (exports, imports), and reads (the
 * workbench's pages: quick, so they never wait behind a drawing or an export).
 */
export type WorkerLane = 'reports' | 'files' | 'reads';

/** A job's name, its input and its value. */
export type JobName = keyof WorkerJobs;
export type JobInput<K extends JobName> = Parameters<WorkerJobs[K]>[1];
export type JobOutput<K extends JobName> = Awaited<ReturnType<WorkerJobs[K]>>;

/** How a job is run: a signal that cancels it, and who hears its progress. */
export interface JobOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: JobProgress) => void;
  /** Confine the job's file reads to these real folder paths (a served request's roots). */
  readonly confinedTo?: readonly string[];
}

/** The engine's worker threads. */
export interface EngineWorkers {
  run<K extends JobName>(
    lane: WorkerLane,
    job: K,
    input: JobInput<K>,
    options?: JobOptions,
  ): Promise<JobOutput<K>>;
  /**
   * Runs `job` as `run` does, its value encoded as JSON in the worker: what comes back is the
   * bytes, for an answer the engine's thread only passes on (api/encoded-answer.ts).
   */
  runEncoded<K extends JobName>(
    lane: WorkerLane,
    job: K,
    input: JobInput<K>,
    options?: JobOptions,
  ): Promise<readonly Uint8Array[]>;
  /** Jobs waiting or running in `lane` (the window's status, tests). */
  busy(lane: WorkerLane): number;
  /** Stops every worker; jobs still waiting or running fail as cancelled. */
  close(): Promise<void>;
}

/** Why a job did not finish: it was cancelled, or the workers were closed. */
export class JobCancelledError extends Error {
  constructor(job: string) {
    super(`${job} was cancelled.`);
    this.name = 'AbortError';
  }
}

interface Pending {
  readonly id: number;
  readonly job: string;
  readonly input: unknown;
  readonly encode: boolean;
  readonly options: JobOptions;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

function errorOf(error: Extract<JobMessage, { kind: 'failed' }>['error']): Error {
  if (error.engine) {
    const made = new EngineError(error.code, error.message);
    // A rejected file's rows cross as its issues (dispatch.ts), as they would from this thread.
    return error.problems ? Object.assign(made, { problems: error.problems }) : made;
  }
  const made = new Error(error.message);
  made.name = error.name;
  return made;
}

/** True when a worker was stopped for reaching its heap limit (Node's own code for it). */
function outOfMemory(error: Error): boolean {
  return (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
}

class Lane {
  private worker: Worker | null = null;
  private readonly queue: Pending[] = [];
  private running: Pending | null = null;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly start: WorkerStart,
    private readonly name: WorkerLane,
  ) {}

  get size(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  run(job: string, input: unknown, options: JobOptions, encode = false): Promise<unknown> {
    if (this.closed || options.signal?.aborted) return Promise.reject(new JobCancelledError(job));
    return new Promise((resolve, reject) => {
      const pending: Pending = { id: this.nextId++, job, input, encode, options, resolve, reject };
      options.signal?.addEventListener('abort', () => this.cancel(pending), { once: true });
      this.queue.push(pending);
      this.pump();
    });
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const next = this.queue.shift();
    if (!next) return;
    let worker: Worker;
    try {
      worker = this.ensureWorker();
    } catch (error) {
      next.reject(error instanceof Error ? error : new Error(String(error)));
      this.pump();
      return;
    }
    this.running = next;
    worker.ref();
    const { confinedTo } = next.options;
    const request: JobRequest = {
      id: next.id,
      job: next.job,
      input: next.input,
      ...(next.encode ? { encode: true } : {}),
      ...(confinedTo ? { confinedTo } : {}),
    };
    worker.postMessage(request);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerThread(this.start);
    worker.on('message', (message: JobMessage) => this.heard(worker, message));
    worker.on('error', (error) => this.lost(worker, error.message, outOfMemory(error)));
    worker.on('exit', (code) => this.lost(worker, `it exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private heard(worker: Worker, message: JobMessage): void {
    const pending = this.running;
    if (worker !== this.worker || !pending || pending.id !== message.id) return;
    if (message.kind === 'progress') {
      pending.options.onProgress?.(message.progress);
      return;
    }
    this.settled(worker);
    if (message.kind === 'done') pending.resolve(message.value);
    else if (message.kind === 'encoded') pending.resolve(message.chunks);
    else pending.reject(errorOf(message.error));
  }

  private settled(worker: Worker): void {
    this.running = null;
    worker.unref();
    this.pump();
  }

  /** The worker stopped (an error it did not catch, memory, a crash): its job fails, named. */
  private lost(worker: Worker, why: string, memory = false): void {
    if (worker !== this.worker) return;
    this.worker = null;
    const pending = this.running;
    this.running = null;
    // Out of memory, the same job would only fail again: say so instead of "try again".
    const next = memory
      ? 'The engine keeps running; this job needs more memory than a worker has, so it would fail again as it is'
      : 'Try again';
    pending?.reject(
      new EngineError(
        'internal',
        `The ${this.name} worker stopped while it ran ${pending.job} (${why}). Nothing stored was changed by it. ${next}.`,
      ),
    );
    this.pump();
  }

  private cancel(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      pending.reject(new JobCancelledError(pending.job));
      return;
    }
    if (this.running !== pending) return;
    // A job cannot be stopped from outside its thread, so its worker goes; the next job gets a
    // fresh one. Its connection only read, or wrote in transactions SQLite rolls back.
    const worker = this.worker;
    this.worker = null;
    this.running = null;
    pending.reject(new JobCancelledError(pending.job));
    void worker?.terminate();
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new JobCancelledError(pending.job));
    const running = this.running;
    this.running = null;
    running?.reject(new JobCancelledError(running.job));
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

/** The engine's workers over the workspace database at `databasePath`; none starts until used. */
export function createEngineWorkers(databasePath: string): EngineWorkers {
  const heavy: WorkerStart = { databasePath, lowPriority: true };
  const lanes: Record<WorkerLane, Lane> = {
    reports: new Lane(heavy, 'reports'),
    files: new Lane(heavy, 'files'),
    reads: new Lane({ databasePath, lowPriority: false }, 'reads'),
  };
  return {
    run: (lane, job, input, options = {}) =>
      lanes[lane].run(job, input, options) as Promise<JobOutput<typeof job>>,
    runEncoded: (lane, job, input, options = {}) =>
      lanes[lane].run(job, input, options, true) as Promise<readonly Uint8Array[]>,
    busy: (lane) => lanes[lane].size,
    close: async () => {
      await Promise.all(Object.values(lanes).map((lane) => lane.close()));
    },
  };
}
