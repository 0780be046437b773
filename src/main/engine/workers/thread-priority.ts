/**
 * A worker thread gives way to the engine's thread. On Linux every thread has a nice value of
 * its own, and a worker raises its own as it starts: on a busy machine the thread that answers
 * requests is then scheduled first, and a long drawing or export takes the time left over.
 * Measured by bench part (e) at load 7 before this: a health request waited up to 700 ms
 * behind an Inspect export although the engine's thread was idle the whole time (its profile
 * showed no work), because the worker and the machine's other processes held both cores.
 * Elsewhere (no per-thread nice through Node) it does nothing.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The nice value of a worker thread (0 is normal; 19 the lowest priority). */
export const workerNice = 10;

/**
 * Lowers the calling thread's priority to `workerNice` (never raises it) and returns its thread
 * id, or null where this cannot be done. Never touches the process's main thread.
 */
export function lowerThreadPriority(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    // /proc/thread-self links to /proc/PID/task/TID of the thread that reads it.
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(thread) || thread <= 0 || thread === process.pid) return null;
    setPriority(thread, Math.max(getPriority(thread), workerNice));
    return thread;
  } catch {
    return null;
  }
}
