/**
 * A study's report tables drawn in the engine's reports worker (workers/jobs.ts `drawTables`),
 * one study at a time, with progress published as `study.tables` so the window can say what it
 * waits for. The runner's end-of-study drawing, the warm pass on engine start and a request for
 * a study whose persisted tables are stale all come here, so a study is never drawn twice at
 * once; everything in flight is cancelled when the engine closes.
 */
import { EngineError } from '../errors';
import { doneJobCount } from '../store/faces/reps';
import { readStudyHeader } from '../store/faces/studies';
import { JobCancelledError } from '../workers';
import type { HandlerContext } from './handlers';

/** Drawing studies' tables in the worker. */
export interface TableDraws {
  /** Draws every table of the study (joins a drawing of it already under way). */
  draw(studyId: string): Promise<void>;
  /**
   * The drawing of the study under way, if any; a study the warm pass has yet to reach is
   * drawn now, ahead of its turn (someone is waiting for it).
   */
  drawing(studyId: string): Promise<void> | undefined;
  /**
   * Draws every native study that is not running and whose persisted tables are missing or
   * stale, most recently updated first, one at a time; resolves to how many it drew.
   */
  warm(): Promise<number>;
  /** Cancels what is waiting or being drawn (the runner stops); later drawings run. */
  cancel(): void;
  /** Cancels what is waiting or being drawn and every later drawing (the engine closes). */
  close(): void;
}

/**
 * `error` said as the failure of `what`, keeping its code; a cancellation, an unknown study and
 * a bad request stay as they are.
 */
export function namedFailure(what: string, error: unknown): unknown {
  if (error instanceof JobCancelledError) return error;
  if (error instanceof EngineError && (error.code === 'not_found' || error.code === 'bad_request'))
    return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof EngineError ? error.code : 'internal';
  return new EngineError(code, `${what} failed: ${message}`);
}

/** `error` said as the failure of drawing `table` of the study (its name and id), keeping its code. */
export function drawFailure(
  context: Pick<HandlerContext, 'store'>,
  studyId: string,
  table: string,
  error: unknown,
): unknown {
  if (error instanceof JobCancelledError) return error;
  let name = studyId;
  try {
    const header = readStudyHeader(context.store, studyId);
    if (header) name = `"${header.name}" (${studyId})`;
  } catch {
    // The name is a courtesy; the id says which study.
  }
  return namedFailure(`Drawing the ${table} table of study ${name}`, error);
}

/** The engine's table drawings over its workers. */
export function createTableDraws(
  context: Pick<HandlerContext, 'store' | 'workers' | 'publish'>,
): TableDraws {
  const { store, workers, publish } = context;
  // Replaced at each cancel: a drawing is cancelled by the signal of its time.
  let cancelling = new AbortController();
  let closed = false;
  const under = new Map<string, Promise<void>>();
  // Studies the warm pass has yet to draw.
  const waiting = new Set<string>();

  const run = async (studyId: string): Promise<void> => {
    const { signal } = cancelling;
    if (closed) throw new JobCancelledError('drawTables');
    const reps = doneJobCount(store, studyId);
    let step = 'tables';
    const tell = (done: number, total: number, now: string, error?: string) =>
      publish({
        stream: 'study.tables',
        data: { studyId, done, total, step: now, reps, ...(error ? { error } : {}) },
      });
    try {
      await workers.run(
        'reports',
        'drawTables',
        { studyId },
        {
          signal,
          onProgress: (progress) => {
            step = progress.step ?? step;
            tell(progress.done, progress.total, step);
          },
        },
      );
    } catch (error) {
      const failure = drawFailure(context, studyId, step, error);
      if (!(failure instanceof JobCancelledError))
        tell(0, 0, step, failure instanceof Error ? failure.message : String(failure));
      throw failure;
    }
  };

  const draw = (studyId: string): Promise<void> => {
    const known = under.get(studyId);
    if (known) return known;
    const started = run(studyId).finally(() => under.delete(studyId));
    under.set(studyId, started);
    return started;
  };

  return {
    draw,
    drawing: (studyId) => under.get(studyId) ?? (waiting.has(studyId) ? draw(studyId) : undefined),
    async warm() {
      const { signal } = cancelling;
      let drawn = 0;
      let stale: string[];
      try {
        stale = await workers.run('reports', 'staleStudies', {}, { signal });
      } catch {
        return 0;
      }
      for (const studyId of stale) waiting.add(studyId);
      for (const studyId of stale) {
        if (signal.aborted) break;
        waiting.delete(studyId);
        try {
          await draw(studyId);
          drawn += 1;
        } catch {
          // Said in the study's `study.tables` event; its first reader meets the error too.
        }
      }
      return drawn;
    },
    cancel: () => {
      waiting.clear();
      cancelling.abort();
      cancelling = new AbortController();
    },
    close() {
      closed = true;
      this.cancel();
    },
  };
}
