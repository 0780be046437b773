/**
 * Provider calls on a thread of their own. At concurrency 32 a wave's replies arrive together,
 * and the SDK's request building, the HTTP exchange and the reply's parsing (about 4.6 ms of
 * each rep) queued on the engine's thread, which also commits the reps (docs/BENCHMARK.md,
 * "Throughput under load"). Here the engine's thread posts the neutral request and gets back the
 * neutral reply or the same ProviderError. One thread serves every provider, so each provider
 * key's pacer (rate-limits.ts) sees all of its calls; its waits are mirrored back for status.
 * The thread starts on the first call (a synthetic-only run never starts it), is not lowered in
 * priority (unlike the files workers: a provider call is on the runner's critical path), and
 * holds the process open only while calls are in flight. Where its program cannot be found,
 * calls run on the calling thread.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { setThreadWaits } from './rate-limits';
import type { ModelSettings, ResolvedKey } from './settings';
import {
  receivedError,
  type ProviderThreadMessage,
  type ProviderThreadRequest,
} from './thread-messages';
import { ProviderError, type ModelProvider, type ModelResponse } from './types';

/** The built program's file name, beside the engine's bundle (electron.vite.config.ts). */
const BUILT = 'provider-worker.js';

interface Call {
  resolve(response: ModelResponse): void;
  reject(error: Error): void;
  /** Who the call went to, named if the thread dies under it. */
  label: string;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

interface ProviderThread {
  worker: Worker;
  /** Providers already built on this thread. */
  opened: Set<number>;
}

let thread: ProviderThread | undefined;
/** True once the program was looked for and is not there (then calls stay on this thread). */
let unavailable = false;
const calls = new Map<number, Call>();
let nextCallId = 1;
/**
 * Providers by what they were built from (settings and key), so the thread builds one client per
 * distinct provider however often one is made here (a provider check makes one each time).
 */
const providerIds = new Map<string, number>();

/** The thread's program: the built one beside the bundle, or the source under tsx. */
function startWorker(): Worker | null {
  // A bundle's shared code may sit in out/main/chunks: look there and one folder up.
  for (const folder of [__dirname, join(__dirname, '..')]) {
    const built = join(folder, BUILT);
    if (existsSync(built)) return new Worker(built);
  }
  const source = join(__dirname, '..', 'workers', 'provider-thread.ts');
  if (!existsSync(source)) return null;
  const loader = createRequire(__filename).resolve('tsx/cjs');
  const program = `require(${JSON.stringify(loader)});\nrequire(${JSON.stringify(source)});`;
  return new Worker(program, { eval: true });
}

function settle(id: number): Call | undefined {
  const call = calls.get(id);
  if (!call) return undefined;
  calls.delete(id);
  call.signal?.removeEventListener('abort', call.onAbort);
  if (calls.size === 0) thread?.worker.unref();
  return call;
}

function onMessage(message: ProviderThreadMessage): void {
  if (message.type === 'waits') setThreadWaits(message.waits);
  else if (message.type === 'done') settle(message.id)?.resolve(message.response);
  else settle(message.id)?.reject(receivedError(message.error));
}

/** The thread died: its calls' outcome is unknown, as when a connection drops mid-call. */
function failAll(worker: Worker, why: string): void {
  if (thread?.worker !== worker) return;
  thread = undefined;
  setThreadWaits([]);
  for (const id of [...calls.keys()]) {
    const call = settle(id);
    call?.reject(
      new ProviderError(
        'connection',
        `The provider thread stopped during the call to ${call.label}: ${why}`,
      ),
    );
  }
}

function currentThread(): ProviderThread | undefined {
  if (thread || unavailable) return thread;
  const worker = startWorker();
  if (!worker) {
    unavailable = true;
    return undefined;
  }
  worker.unref();
  worker.on('message', onMessage);
  worker.on('error', (error) => failAll(worker, error.message));
  worker.on('exit', (code) => failAll(worker, `it exited with code ${code}`));
  thread = { worker, opened: new Set() };
  return thread;
}

/**
 * Starts the provider thread ahead of its first call (a study with a model judge is loaded), so
 * its start overlaps the first rep's provisioning instead of delaying its first request.
 */
export function warmProviderThread(): void {
  if (process.env.CUELAB_PROVIDER_THREAD !== '0') currentThread();
}

/**
 * A provider whose calls run on the provider thread; `fallback` builds the same provider on this
 * thread when the thread's program is missing.
 */
export function threadedProvider(
  settings: ModelSettings,
  key: ResolvedKey,
  fallback: () => ModelProvider,
): ModelProvider {
  const built = JSON.stringify([settings, key]);
  const providerId = providerIds.get(built) ?? providerIds.size + 1;
  providerIds.set(built, providerId);
  const label = `${settings.provider} (${settings.model})`;
  let local: ModelProvider | undefined;
  return {
    kind: settings.provider,
    complete(request, signal) {
      const current = currentThread();
      if (!current) {
        local ??= fallback();
        return local.complete(request, signal);
      }
      const { worker, opened } = current;
      const post = (message: ProviderThreadRequest) => worker.postMessage(message);
      if (!opened.has(providerId)) {
        post({ type: 'open', providerId, settings, key });
        opened.add(providerId);
      }
      return new Promise<ModelResponse>((resolve, reject) => {
        const id = nextCallId++;
        const onAbort = () => post({ type: 'abort', id });
        calls.set(id, { resolve, reject, label, signal, onAbort });
        if (calls.size === 1) worker.ref();
        try {
          post({ type: 'call', id, providerId, request });
        } catch (error) {
          // A request postMessage cannot copy: fail this call, as a bad argument would.
          settle(id);
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
