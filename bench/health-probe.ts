/**
 * A simple request's latency while the engine does something heavy (parts s and e): a health
 * request every 20 ms to a real `cuelab serve`, its p50/p99/max, and the machine's load beside.
 */
import { loadavg } from 'node:os';
import type { ServeProcess } from '../test/helpers/serve-process';
import { now, quantile, round } from './measure';

/** Health latencies in ms. */
export interface HealthSpread {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** One heavy request timed with the health latencies sent while it ran. */
export interface ProbedRequest<T> {
  ms: number;
  /** What it answered; an Error when it failed (the health figures still stand). */
  value: T | Error;
  health: HealthSpread;
  /** The 1-minute load average when it ended. */
  load: number;
}

/** Sends a health request every 20 ms until stopped; resolves to their latencies. */
export function healthProbe(serve: ServeProcess): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = now();
      await serve.lab.health({});
      latencies.push(now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

/** p50, p99 and max of latencies in ms. */
export function spread(latencies: readonly number[]): HealthSpread {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(quantile(sorted, 0.5)),
    p99: round(quantile(sorted, 0.99)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** The 1-minute load average, to two decimals. */
export function loadNow(): number {
  return round(loadavg()[0] ?? 0, 2);
}

/** Health latencies alone, over `ms`. */
export async function healthAlone(serve: ServeProcess, ms: number): Promise<HealthSpread> {
  const probe = healthProbe(serve);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return spread(await probe.stop());
}

/** Runs `work` with the health probe going from 100 ms before it to 100 ms after. */
export async function probed<T>(
  serve: ServeProcess,
  work: () => Promise<T>,
): Promise<ProbedRequest<T>> {
  const probe = healthProbe(serve);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = now();
  let value: T | Error;
  try {
    value = await work();
  } catch (error) {
    value = error instanceof Error ? error : new Error(String(error));
  }
  const ms = round(now() - started);
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { ms, value, health: spread(await probe.stop()), load: loadNow() };
}
