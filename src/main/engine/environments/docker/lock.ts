/**
 * A lock file between processes on one machine (the base image is built once even when the
 * CLI and a test run ask for it together). A lock whose owner pid is gone is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

/** Runs `work` while holding `path`; waits (abortably) while a live process holds it. */
export async function withFileLock<T>(
  path: string,
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  for (;;) {
    signal?.throwIfAborted();
    if (tryAcquire(path)) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    return await work();
  } finally {
    rmSync(path, { force: true });
  }
}

function tryAcquire(path: string): boolean {
  try {
    const descriptor = openSync(path, 'wx');
    writeSync(descriptor, String(process.pid));
    closeSync(descriptor);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
  let owner: number;
  let ageMs: number;
  try {
    owner = Number(readFileSync(path, 'utf8'));
    ageMs = Date.now() - statSync(path).mtimeMs;
  } catch {
    return false; // released between our looks; try again
  }
  const ownerKnown = Number.isInteger(owner) && owner > 0;
  // An empty lock is being written right now, unless it has been empty for a while.
  if (ownerKnown ? isProcessAlive(owner) : ageMs < 10_000) return false;
  rmSync(path, { force: true }); // a stale lock from a process that died
  return false;
}

/** True when process `pid` exists on this host (EPERM means it exists but is not ours). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
