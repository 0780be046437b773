/**
 * The provider thread's program (providers/threaded.ts): builds each provider the engine's
 * thread opens, with its real SDK, and runs its calls, posting back the neutral reply or the
 * failure's fields. Its pacers (rate-limits.ts) live here, so their waits are posted back as they
 * change. It keeps the default priority on purpose: a provider call is on the runner's path.
 */
import { parentPort } from 'node:worker_threads';
import {
  buildProvider,
  onProviderWaitChange,
  providerWaits,
  sendableError,
  type ModelProvider,
  type ProviderThreadMessage,
  type ProviderThreadRequest,
} from '../providers';

const port = parentPort;
if (!port) throw new Error('provider-thread.ts runs only as a worker thread.');

type Opened = Extract<ProviderThreadRequest, { type: 'open' }>;
/** What each provider was opened with; built on its first call. */
const opened = new Map<number, Opened>();
const built = new Map<number, ModelProvider>();
const running = new Map<number, AbortController>();

function post(message: ProviderThreadMessage): void {
  port?.postMessage(message);
}

function providerOf(providerId: number): ModelProvider {
  const existing = built.get(providerId);
  if (existing) return existing;
  const open = opened.get(providerId);
  if (!open) throw new Error(`The provider thread was never told of provider ${providerId}.`);
  const provider = buildProvider(open.settings, open.key);
  built.set(providerId, provider);
  return provider;
}

async function call(request: Extract<ProviderThreadRequest, { type: 'call' }>): Promise<void> {
  const controller = new AbortController();
  running.set(request.id, controller);
  try {
    const response = await providerOf(request.providerId).complete(
      request.request,
      controller.signal,
    );
    post({ type: 'done', id: request.id, response });
  } catch (error) {
    post({ type: 'failed', id: request.id, error: sendableError(error) });
  } finally {
    running.delete(request.id);
  }
}

onProviderWaitChange(() => post({ type: 'waits', waits: providerWaits() }));

port.on('message', (message: ProviderThreadRequest) => {
  if (message.type === 'open') opened.set(message.providerId, message);
  else if (message.type === 'abort') running.get(message.id)?.abort();
  else void call(message);
});
