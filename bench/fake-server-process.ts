/**
 * The fake model server of part (b) in its own process, so its work (parsing request bodies,
 * keeping every request, its timers) does not share the measured process's event loop or CPU
 * account. The parent forks this file and talks to it over IPC:
 *   child → parent: { type: 'ready', url }   then { type: 'count', count } per 'count' request
 *   parent → child: { type: 'latency', ms }, { type: 'count' }, { type: 'close' }
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startFakeModelServer } from '../test/helpers/fake-model-server';
import { deferentialJudge } from '../test/helpers/scripted-judge';

type ToChild = { type: 'latency'; ms: number } | { type: 'count' } | { type: 'close' };
type ToParent = { type: 'ready'; url: string } | { type: 'count'; count: number };

/** The parent's handle on the server process. */
export interface FakeServerProcess {
  readonly url: string;
  /** Resolves once the server has applied it. */
  setLatency(ms: number): Promise<void>;
  /** Anthropic calls the server has answered so far. */
  callCount(): Promise<number>;
  close(): Promise<void>;
}

/** Forks the server process (running this file under tsx) and waits until it listens. */
export async function startFakeServerProcess(latencyMs: number): Promise<FakeServerProcess> {
  const child: ChildProcess = fork(__filename, ['--serve', String(latencyMs)], {
    // `--import tsx` resolves from the child's folder: the repo root, whose node_modules has it.
    cwd: join(__dirname, '..'),
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T extends ToParent['type']>(type: T) =>
    new Promise<Extract<ToParent, { type: T }>>((resolve, reject) => {
      const onMessage = (message: ToParent) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<ToParent, { type: T }>);
      };
      const onExit = (code: number | null) =>
        reject(new Error(`the fake server process exited (${String(code)})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const send = (message: ToChild) => child.send(message);
  const { url } = await next('ready');
  const callCount = async () => {
    const answer = next('count');
    send({ type: 'count' });
    return (await answer).count;
  };
  return {
    url,
    // IPC messages are handled in order, so the count's answer confirms the latency is set.
    setLatency: async (ms) => {
      send({ type: 'latency', ms });
      await callCount();
    },
    callCount,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        send({ type: 'close' });
      }),
  };
}

async function serve(latencyMs: number): Promise<void> {
  const server = await startFakeModelServer({ latencyMs });
  server.handle('anthropic', deferentialJudge());
  const reply = (message: ToParent) => process.send?.(message);
  process.on('message', (message: ToChild) => {
    if (message.type === 'latency') server.setLatency(message.ms);
    else if (message.type === 'count')
      reply({ type: 'count', count: server.callCount('anthropic') });
    else
      void server.close().finally(() => {
        process.disconnect();
      });
  });
  reply({ type: 'ready', url: server.url });
}

if (process.argv[2] === '--serve') {
  serve(Number(process.argv[3])).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
