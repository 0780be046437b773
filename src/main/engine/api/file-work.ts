/**
 * The one seam of file work (exports, bundles opened, imports): a handler hands the job of the
 * same name to the engine's files worker, so the thread that answers requests stays free, and
 * whoever waits hears its progress as `files.progress` events. Each job is handed the keys the
 * engine knows (its environment, the session's, those remembered), in memory only, so what the
 * worker exports or stores is redacted as it is here.
 */
import type { fileJobMethods } from '../../../shared/lab-api/bundles';
import { knownKeys } from '../secrets';
import type { JobInput, JobOutput } from '../workers';
import { EncodedAnswer } from './encoded-answer';
import type { HandlerContext } from './handlers';

/** A method whose work runs on the files worker (its job has the method's name). */
export type FileJobMethod = (typeof fileJobMethods)[number];

/** Runs `method`'s job on the files worker with `input` and the engine's keys. */
export function inFilesWorker<M extends FileJobMethod>(
  context: Pick<HandlerContext, 'workers' | 'secrets' | 'publish'>,
  method: M,
  input: Omit<JobInput<M>, 'keys'>,
): Promise<JobOutput<M>> {
  const keys = knownKeys(context.secrets.env());
  return context.workers.run('files', method, { ...input, keys }, fileProgress(context, method));
}

/**
 * Runs `method`'s job as `inFilesWorker` does, for an answer too large to pass through this
 * thread as a value (exports): the worker encodes it, and the answer is its JSON bytes.
 */
export async function encodedFromFilesWorker<M extends FileJobMethod>(
  context: Pick<HandlerContext, 'workers' | 'secrets' | 'publish'>,
  method: M,
  input: Omit<JobInput<M>, 'keys'>,
): Promise<EncodedAnswer<JobOutput<M>>> {
  const keys = knownKeys(context.secrets.env());
  const chunks = await context.workers.runEncoded(
    'files',
    method,
    { ...input, keys },
    fileProgress(context, method),
  );
  return new EncodedAnswer<JobOutput<M>>(chunks);
}

/** Hands a job's progress on as `files.progress` events. */
function fileProgress(
  context: Pick<HandlerContext, 'publish'>,
  method: FileJobMethod,
): { onProgress: (progress: { done: number; total: number; step?: string }) => void } {
  let last = { step: '', percent: -1 };
  return {
    onProgress: ({ done, total, step }) => {
      // At most one event per percent (a folder of 20,000 runs is read one file at a time).
      const percent = total > 0 ? Math.floor((done * 100) / total) : 0;
      if (percent === last.percent && (step ?? '') === last.step) return;
      last = { step: step ?? '', percent };
      context.publish({
        stream: 'files.progress',
        data: { method, done, total, ...(step === undefined ? {} : { step }) },
      });
    },
  };
}
