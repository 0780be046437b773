/**
 * A simple request's latency while the engine does something heavy (parts s and e): a health
 * request every 20 ms to a real `cuelab serve`, sent from a thread of the bench's own, its
 * p50/p99/max, and the machine's load beside.
 */
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { labPaths } from '../src/shared/lab-api';
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

/**
 * The probe's own thread: it sends a health request every 20 ms and keeps the latencies until
 * told to stop. A thread of its own, because the bench's thread parses what the heavy request
 * answers (an Inspect log of a hundred megabytes): a probe sharing that thread measured the
 * bench's parse, not the engine (one such wait read 3.2 s in a paper-scale Inspect export).
 */
const probeThread = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const latencies = [];
let running = true;
parentPort.on('message', () => { running = false; });
(async () => {
  while (running) {
    const started = performance.now();
    const answer = await fetch(workerData.url, {
      method: 'POST',
      headers: { authorization: 'Bearer ' + workerData.token, 'content-type': 'application/json' },
      body: '{}',
    });
    await answer.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  parentPort.postMessage(latencies);
})();
`;

/** Sends a health request every 20 ms, from a thread of its own, until stopped. */
export function healthProbe(serve: ServeProcess): { stop(): Promise<number[]> } {
  const { baseUrl, token } = serve.address;
  const url = new URL(`${labPaths.methodPrefix}health`, baseUrl).href;
  const thread = new Worker(probeThread, { eval: true, workerData: { url, token } });
  const done = new Promise<number[]>((resolve, reject) => {
    thread.once('message', (latencies: number[]) => resolve(latencies));
    thread.once('error', reject);
  });
  return {
    async stop() {
      thread.postMessage('stop');
      const latencies = await done;
      await thread.terminate();
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
