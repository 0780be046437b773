/**
 * Fault injection for the fault-matrix test (test/engine/fault-matrix.test.ts). With
 * `CUELAB_CRASH_AT=<point>:<n>` in its environment, the process kills itself with SIGKILL the
 * n-th time the runner reaches <point>, as a power cut would: at moments no outside observer
 * can hit reliably (between two statements of the runner). Unset, it does nothing.
 */

/** Where the runner can be made to die. */
export type CrashPoint =
  /** About to claim a job (the previous rep is finished and stored). */
  | 'before-claim'
  /** The rep and its job's completion are committed; its majority is not yet fixed. */
  | 'after-store'
  /** A group of two or more reps is committed; none of their workers has been told yet. */
  | 'group-committed';

const setting = parseSetting(process.env.CUELAB_CRASH_AT);
let reached = 0;

/** Kills this process if CUELAB_CRASH_AT names `point` and this is its n-th passage. */
export function crashPoint(point: CrashPoint): void {
  if (!setting || setting.point !== point) return;
  reached += 1;
  if (reached === setting.count) process.kill(process.pid, 'SIGKILL');
}

function parseSetting(value: string | undefined): { point: CrashPoint; count: number } | null {
  const match = /^(before-claim|after-store|group-committed):(\d+)$/.exec(value ?? '');
  if (!match) return null;
  return { point: match[1] as CrashPoint, count: Number(match[2]) };
}
