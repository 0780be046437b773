import { describe, expect, it } from 'vitest';
import { busySeconds, paceOf } from '../../src/main/engine/runner/pace';

// Worked example, by hand. Four reps run two at a time from t = 0 s:
//   A [0, 10]  B [0, 12]  C [10, 20]  D [12, 22]
// Their union is [0, 22]: 22 busy seconds for 4 reps, so 4 / 22 reps per second
// (10.909… per minute). With 18 reps left: 18 × 22 / 4 = 99 seconds.
const rep = (startS: number, endS: number) => ({
  finishedAtMs: 1_000_000 + endS * 1000,
  durationMs: (endS - startS) * 1000,
});
const twoAtATime = [rep(0, 10), rep(0, 12), rep(10, 20), rep(12, 22)];

describe('pace and ETA from finished reps', () => {
  it('counts reps that ran side by side once in the busy time', () => {
    expect(busySeconds(twoAtATime)).toBe(22);
  });

  it('gives the worked example: 4 reps in 22 busy seconds, 18 left → 99 s', () => {
    const pace = paceOf({ recent: twoAtATime, remaining: 18, parallelLimit: 2 });
    expect(pace?.etaSeconds).toBeCloseTo(99, 9);
    expect(pace?.repsPerMinute).toBeCloseTo((4 / 22) * 60, 9);
  });

  it('leaves a long idle gap (a pause) out of the busy time, keeps a short one', () => {
    // The same four reps, then a 10-minute pause, then two more of 10 s side by side.
    const paused = [...twoAtATime, rep(622, 632), rep(622, 632)];
    expect(busySeconds(paused)).toBe(32);
    // A 3 s gap between reps (claiming the next job) is working time.
    expect(busySeconds([rep(0, 10), rep(13, 23)])).toBe(23);
  });

  it('divides a single rep among the reps that may run at once', () => {
    const pace = paceOf({ recent: [rep(0, 20)], remaining: 12, parallelLimit: 4 });
    // 4 reps per 20 s → 12 reps in 60 s.
    expect(pace?.etaSeconds).toBeCloseTo(60, 9);
    // Fewer reps left than the limit: only those run at once.
    expect(paceOf({ recent: [rep(0, 20)], remaining: 2, parallelLimit: 4 })?.etaSeconds).toBe(20);
  });

  it('has no pace before any rep finished, and zero time left when nothing remains', () => {
    expect(paceOf({ recent: [], remaining: 10, parallelLimit: 4 })).toBeNull();
    expect(paceOf({ recent: twoAtATime, remaining: 0, parallelLimit: 2 })?.etaSeconds).toBe(0);
  });

  it('reads only the most recent 32 reps, in any order', () => {
    // 40 slow reps long ago, then 32 fast ones one at a time: the slow ones no longer count.
    const slow = Array.from({ length: 40 }, (_, index) => rep(index * 100, index * 100 + 100));
    const fast = Array.from({ length: 32 }, (_, index) => rep(5000 + index, 5001 + index));
    const pace = paceOf({ recent: [...fast, ...slow].reverse(), remaining: 64, parallelLimit: 1 });
    expect(pace?.etaSeconds).toBeCloseTo(64, 9);
  });
});
