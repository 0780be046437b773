/**
 * The worker thread's program: opens its own connection to the workspace database (WAL lets it
 * read beside the engine's writes) and runs the jobs the engine's thread sends, one at a time,
 * posting their progress and outcome (messages.ts); heavy lanes at a lower priority than the
 * engine's thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { confinedTo, runConfined } from '../confined-read';
import { EngineError } from '../errors';
import { namedStoreDamage, openStore, type Store } from '../store';
import { workerJobs, type WorkerJobContext } from './jobs';
import { jsonChunks } from './json-chunks';
import type { JobMessage, JobRequest, WorkerStart } from './messages';
import { lowerThreadPriority } from './thread-priority';

const port = parentPort;
if (!port) throw new Error('worker-main.ts runs only as a worker thread.');
const start = workerData as WorkerStart;
let store: Store | undefined;
// Heavy work waits for the engine's thread, never the other way round (thread-priority.ts).
if (start.lowPriority) lowerThreadPriority();

function post(message: JobMessage): void {
  port?.postMessage(message);
}

function failure(error: unknown): Extract<JobMessage, { kind: 'failed' }>['error'] {
  if (error instanceof EngineError) {
    const problems = (error as { problems?: unknown }).problems;
    return {
      engine: true,
      code: error.code,
      message: error.message,
      name: error.name,
      ...(Array.isArray(problems) ? { problems: problems.map(String) } : {}),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : 'Error';
  return { engine: false, code: 'internal', message, name };
}

async function run(request: JobRequest): Promise<void> {
  try {
    // The engine's own connection checked the file when it opened the workspace.
    store ??= openStore(start.databasePath, { alreadyChecked: true });
    const job = (workerJobs as Record<string, unknown>)[request.job];
    if (typeof job !== 'function') throw new Error(`There is no worker job "${request.job}".`);
    const context: WorkerJobContext = {
      store,
      progress: (progress) => post({ id: request.id, kind: 'progress', progress }),
    };
    const call = () =>
      (job as (c: WorkerJobContext, i: unknown) => unknown)(context, request.input);
    // A served request's reads are checked on each open file here as on the engine's thread.
    const value: unknown = await (request.confinedTo
      ? runConfined(confinedTo(request.confinedTo), call)
      : call());
    if (request.encode) {
      // Encoded here, so the engine's thread only writes the bytes (their buffers move, uncopied).
      const chunks = jsonChunks(value);
      port?.postMessage(
        { id: request.id, kind: 'encoded', chunks } satisfies JobMessage,
        chunks.map((chunk) => chunk.buffer as ArrayBuffer),
      );
    } else post({ id: request.id, kind: 'done', value });
  } catch (error) {
    // Damage SQLite met (a malformed JSON value, a damaged page) is named here, where the
    // database is: the engine's thread gets store_unreadable with the table, row and field.
    post({
      id: request.id,
      kind: 'failed',
      error: failure(store ? namedStoreDamage(store, error) : error),
    });
  }
}

// One job at a time: the pool sends the next only after this one's outcome.
port.on('message', (request: JobRequest) => void run(request));
port.on('close', () => store?.close());
