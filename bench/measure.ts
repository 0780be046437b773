/**
 * Measuring helpers for the benchmark: order statistics, a monotonic stopwatch, forced garbage
 * collection and a memory sampler. Numbers only; printing lives in report.ts.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Median, p90, min and max of a sample, in the sample's unit. */
export interface Summary {
  n: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

/** The q-quantile (0..1) of sorted values, linear between neighbours. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] ?? Number.NaN;
  const high = sorted[above] ?? low;
  return low + (high - low) * (position - below);
}

/** Median and p90 of `values`. */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Milliseconds since an arbitrary origin, sub-millisecond resolution. */
export function now(): number {
  return performance.now();
}

/** Runs `work` and returns its result with the milliseconds it took. */
export async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const started = now();
  const value = await work();
  return { value, ms: now() - started };
}

let collect: (() => void) | undefined;

/**
 * A full garbage collection, so heap numbers are live data rather than garbage not yet
 * collected. `--expose-gc` is switched on at run time (no node flag needed under tsx).
 */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

const megabyte = 1024 * 1024;

/** Memory of one phase, in MiB: after a collection before and after, plus peaks seen between. */
export interface MemoryReport {
  rssStartMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  rssDeltaMb: number;
  heapUsedStartMb: number;
  heapUsedPeakMb: number;
  heapUsedEndMb: number;
  heapUsedDeltaMb: number;
}

/** Samples rss and heapUsed every `intervalMs` between `start` and `stop`. */
export class MemorySampler {
  private timer: NodeJS.Timeout | undefined;
  private start = { rss: 0, heap: 0 };
  private peak = { rss: 0, heap: 0 };

  constructor(private readonly intervalMs = 25) {}

  begin(): void {
    collectGarbage();
    const usage = process.memoryUsage();
    this.start = { rss: usage.rss, heap: usage.heapUsed };
    this.peak = { ...this.start };
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  end(): MemoryReport {
    clearInterval(this.timer);
    this.sample();
    collectGarbage();
    const usage = process.memoryUsage();
    const mb = (bytes: number) => round(bytes / megabyte, 1);
    return {
      rssStartMb: mb(this.start.rss),
      rssPeakMb: mb(this.peak.rss),
      rssEndMb: mb(usage.rss),
      rssDeltaMb: mb(usage.rss - this.start.rss),
      heapUsedStartMb: mb(this.start.heap),
      heapUsedPeakMb: mb(this.peak.heap),
      heapUsedEndMb: mb(usage.heapUsed),
      heapUsedDeltaMb: mb(usage.heapUsed - this.start.heap),
    };
  }

  private sample(): void {
    const usage = process.memoryUsage();
    this.peak.rss = Math.max(this.peak.rss, usage.rss);
    this.peak.heap = Math.max(this.peak.heap, usage.heapUsed);
  }
}

/** `value` rounded to `digits` decimals. */
export function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** A summary with every field rounded, for the JSON file. */
export function rounded(summary: Summary, digits = 1): Summary {
  return {
    n: summary.n,
    median: round(summary.median, digits),
    p90: round(summary.p90, digits),
    min: round(summary.min, digits),
    max: round(summary.max, digits),
  };
}

/** Times `work` `times` times, yielding to timers and I/O between runs as the app would. */
export async function sampleMs(times: number, work: () => unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < times; run += 1) {
    const started = now();
    work();
    samples.push(now() - started);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return samples;
}

/**
 * Runs two measured sides `reps` times, alternating which goes first so drift on the shared
 * machine (load, caches, a warming daemon) falls on both equally; `after` sees each rep's pair.
 */
export async function alternating<A, B>(
  reps: number,
  first: () => Promise<A>,
  second: () => Promise<B>,
  after?: (rep: number, a: A, b: B) => void,
): Promise<{ first: A[]; second: B[] }> {
  const out = { first: [] as A[], second: [] as B[] };
  for (let rep = 0; rep < reps; rep += 1) {
    let a: A;
    let b: B;
    if (rep % 2 === 0) {
      a = await first();
      b = await second();
    } else {
      b = await second();
      a = await first();
    }
    out.first.push(a);
    out.second.push(b);
    after?.(rep, a, b);
  }
  return out;
}
