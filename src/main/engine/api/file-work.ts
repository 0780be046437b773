/**
 * The one seam of file work (exports, bundles opened, imports, uploads staged): a handler hands
 * the job of the same name to the engine's files worker, so the thread that answers requests
 * stays free, and whoever waits hears its progress as `files.progress` events. Each job is
 * handed the keys the engine knows (its environment, the session's, those remembered), in
 * memory only, so what the worker exports or stores is redacted as it is here.
 *
 * Cancelling: every piece of work gets an id its events carry; `cancelFileWork` (another call)
 * or the caller hanging up (the HTTP server runs each request under `withCallSignal`) stops it,
 * and the call answers `cancelled`. A cancel races the job's commit through a flag both threads
 * see (workers/commit-flag.ts): cancelled work stores nothing, work that began to store is not
 * cancelled.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { LabResponse } from '../../../shared/lab-api';
import type { fileJobMethods } from '../../../shared/lab-api/bundles';
import { currentRoots } from '../confined-read';
import { EngineError } from '../errors';
import { knownKeys } from '../secrets';
import {
  claimCancel,
  newCommitFlag,
  type CommitFlag,
  type EngineWorkers,
  type JobInput,
  type JobOptions,
  type JobOutput,
} from '../workers';
import { EncodedAnswer } from './encoded-answer';
import type { HandlerContext } from './handlers';

/** A method whose work runs on the files worker (its job has the method's name). */
export type FileJobMethod = (typeof fileJobMethods)[number];

/** What the handlers say a cancelled call was doing ("Opening the bundle was cancelled"). */
const doing: Record<FileJobMethod, string> = {
  exportBundle: 'Exporting the bundle',
  openBundle: 'Opening the bundle',
  exportInspect: 'Exporting the Inspect logs',
  exportLabels: 'Exporting the labels',
  importLabels: 'Importing the labels',
  importRuns: 'Reading the runs',
  importResults: 'Importing the results',
  importSuiteFile: 'Importing the suite file',
  uploadImportFiles: 'Staging the upload',
};

interface Work {
  readonly method: FileJobMethod;
  readonly flag: CommitFlag;
  readonly controller: AbortController;
}

/** The work under way, per engine (keyed on its workers, which live as long as it does). */
const underWay = new WeakMap<EngineWorkers, Map<string, Work>>();

function worksOf(workers: EngineWorkers): Map<string, Work> {
  let works = underWay.get(workers);
  if (!works) {
    works = new Map();
    underWay.set(workers, works);
  }
  return works;
}

/** The signal of the request being served: it aborts when its caller hangs up. */
const callSignals = new AsyncLocalStorage<AbortSignal>();

/** Runs `call` (and everything it starts) so that file work it asks for ends with `signal`. */
export function withCallSignal<T>(signal: AbortSignal, call: () => T): T {
  return callSignals.run(signal, call);
}

function cancel(work: Work): LabResponse<'cancelFileWork'> {
  if (claimCancel(work.flag) === 'storing') {
    return {
      cancelled: false,
      message: `${doing[work.method]} is storing its result; it can no longer be cancelled.`,
    };
  }
  work.controller.abort();
  return { cancelled: true, message: 'Cancelled.' };
}

/** Cancels the work `workId` names (`cancelFileWork`). */
export function cancelFileWork(
  context: Pick<HandlerContext, 'workers'>,
  workId: string,
): LabResponse<'cancelFileWork'> {
  const work = worksOf(context.workers).get(workId);
  if (!work) {
    return { cancelled: false, message: 'That work is not under way (it may have finished).' };
  }
  return cancel(work);
}

/**
 * Runs `method`'s job on the files worker with `input` and the engine's keys. A cancelled job
 * fails as `cancelled`, saying what it was doing.
 */
export function inFilesWorker<M extends FileJobMethod>(
  context: Pick<HandlerContext, 'workers' | 'secrets' | 'publish'>,
  method: M,
  input: Omit<JobInput<M>, 'keys' | 'commit'>,
): Promise<JobOutput<M>> {
  return fileWork(context, method, (options, commit) =>
    context.workers.run('files', method, { ...input, ...withKeys(context), commit }, options),
  );
}

/**
 * Runs `method`'s job as `inFilesWorker` does, for an answer too large to pass through this
 * thread as a value (exports): the worker encodes it, and the answer is its JSON bytes.
 */
export async function encodedFromFilesWorker<M extends FileJobMethod>(
  context: Pick<HandlerContext, 'workers' | 'secrets' | 'publish'>,
  method: M,
  input: Omit<JobInput<M>, 'keys' | 'commit'>,
): Promise<EncodedAnswer<JobOutput<M>>> {
  const chunks = await fileWork(context, method, (options, commit) =>
    context.workers.runEncoded(
      'files',
      method,
      { ...input, ...withKeys(context), commit },
      options,
    ),
  );
  return new EncodedAnswer<JobOutput<M>>(chunks);
}

function withKeys(context: Pick<HandlerContext, 'secrets'>): {
  keys: ReturnType<typeof knownKeys>;
} {
  return { keys: knownKeys(context.secrets.env()) };
}

/** One piece of file work: its id, its progress events, and its cancelling. */
async function fileWork<T>(
  context: Pick<HandlerContext, 'workers' | 'publish'>,
  method: FileJobMethod,
  run: (options: JobOptions, commit: CommitFlag) => Promise<T>,
): Promise<T> {
  const workId = randomUUID();
  const work: Work = { method, flag: newCommitFlag(), controller: new AbortController() };
  const works = worksOf(context.workers);
  works.set(workId, work);
  const callSignal = callSignals.getStore();
  const hungUp = () => cancel(work);
  callSignal?.addEventListener('abort', hungUp, { once: true });
  let last = { step: 'starting', percent: 0, done: 0, total: 0 };
  const tell = (step: string | undefined, done: number, total: number) =>
    context.publish({
      stream: 'files.progress',
      data: { workId, method, done, total, ...(step === undefined ? {} : { step }) },
    });
  // The first event comes as the work is queued: whoever waits can cancel it from now on.
  tell(last.step, 0, 0);
  try {
    if (callSignal?.aborted) cancel(work);
    const roots = currentRoots();
    return await run(
      {
        signal: work.controller.signal,
        // A served request's reads stay confined to its roots in the worker too.
        ...(roots ? { confinedTo: roots } : {}),
        onProgress: ({ done, total, step }) => {
          // At most one event per percent (a folder of 20,000 runs is read one file at a time).
          const percent = total > 0 ? Math.floor((done * 100) / total) : 0;
          if (percent === last.percent && (step ?? '') === last.step) return;
          last = { step: step ?? '', percent, done, total };
          tell(step, done, total);
        },
      },
      work.flag,
    );
  } catch (error) {
    if (work.controller.signal.aborted) {
      // The last event: whoever else shows this work's progress learns it ended.
      tell('cancelled', last.done, last.total);
      const stored = method.startsWith('export') ? '' : ' Nothing was stored.';
      throw new EngineError('cancelled', `${doing[method]} was cancelled.${stored}`);
    }
    throw error;
  } finally {
    works.delete(workId);
    callSignal?.removeEventListener('abort', hungUp);
  }
}
