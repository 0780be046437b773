/**
 * Pace and time left, from the reps a study has finished (pure: rows in, numbers out).
 *
 * The rate is reps finished per second of busy time over a recent window: each finished rep
 * covers [end − duration, end], and the busy time is the union of those intervals. Reps that
 * ran side by side share their time (so concurrency is counted as it was observed). A short
 * gap between reps (claiming the next job, writing the last) is part of the work and counts;
 * a long one (a pause, a wait with nothing to run) does not. With a single finished
 * rep there is no overlap to observe yet, so its duration is divided among the reps the
 * study may run at once.
 */
import type { FinishedRepTime } from '../store/faces/jobs';

/** How many recent reps the rate is read from: enough to smooth, few enough to follow change. */
export const paceWindowReps = 32;

/** What the pace is computed from. */
export interface PaceInput {
  /** Recently finished reps (any order). */
  recent: readonly FinishedRepTime[];
  /** Reps still to finish: queued, running and cued reps not yet queued. */
  remaining: number;
  /** Reps the study may run at once (its concurrency limit). */
  parallelLimit: number;
}

/** Gaps up to this long between reps count as working time; longer ones as idle. */
export const idleGapMs = 10_000;

/** A measured pace. */
export interface Pace {
  repsPerMinute: number;
  /** Seconds to finish `remaining` at that pace. */
  etaSeconds: number;
}

/** The pace of the recent reps and the time left; null before any rep has finished. */
export function paceOf(input: PaceInput): Pace | null {
  const window = [...input.recent]
    .sort((a, b) => b.finishedAtMs - a.finishedAtMs)
    .slice(0, paceWindowReps);
  if (window.length === 0) return null;
  const remaining = Math.max(0, input.remaining);
  let repsPerSecond: number;
  if (window.length === 1) {
    const only = window[0] as FinishedRepTime;
    const parallel = Math.max(1, Math.min(input.parallelLimit, remaining));
    repsPerSecond = parallel / Math.max(only.durationMs / 1000, 0.001);
  } else {
    repsPerSecond = window.length / Math.max(busySeconds(window), 0.001);
  }
  return { repsPerMinute: repsPerSecond * 60, etaSeconds: remaining / repsPerSecond };
}

/**
 * Seconds covered by the reps' [end − duration, end] intervals, gaps of at most `idleGapMs`
 * between them included.
 */
export function busySeconds(reps: readonly FinishedRepTime[]): number {
  const intervals = reps
    .map((rep) => [rep.finishedAtMs - rep.durationMs, rep.finishedAtMs] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let start = Number.NEGATIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of intervals) {
    if (from > end + idleGapMs) {
      if (end > start) total += end - start;
      start = from;
      end = to;
    } else if (to > end) end = to;
  }
  if (end > start) total += end - start;
  return total / 1000;
}
