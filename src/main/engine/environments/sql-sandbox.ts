/**
 * Item and judge SQL off the engine's thread: a small pool of long-lived Node child processes,
 * each running one request at a time (sql-child.ts). A request that outlives its time limit
 * gets its child killed (SIGKILL), which stops SQLite even deep inside one statement: a
 * worker thread could not be stopped there, as `worker.terminate()` waits for native code to
 * return. The engine's event loop only ever waits on a message, so it keeps answering while a
 * script runs or is killed. A killed child is replaced on the next request.
 *
 * The children get no environment from the engine (no API keys) beyond where better-sqlite3
 * is, and they die with the engine: killed on its exit, and they exit when its IPC channel
 * closes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { handleSqlRequest, type SqlReply, type SqlRequest } from './sql-child';

/** Why a request was stopped from outside: the time limit, an abort, or the child died. */
export class SqlStoppedError extends Error {
  constructor(
    readonly reason: 'time' | 'aborted' | 'crashed',
    message: string,
  ) {
    super(message);
    this.name = 'SqlStoppedError';
  }
}

/** Children kept at most: the machine's SQL work rarely needs more, and each costs ~40 MB. */
const poolSize = 2;

interface PooledChild {
  process: ChildProcess;
  ready: Promise<void>;
  /** The last stderr, for the message when the child dies. */
  stderr: string;
}

const idle: PooledChild[] = [];
const waiting: (() => void)[] = [];
const everyChild = new Set<PooledChild>();
let exitHookInstalled = false;

/** The child's program: the handler's own source, fed requests over IPC. */
function childSource(): string {
  return [
    "'use strict';",
    'const Database = require(process.env.CUELAB_SQLITE_MODULE);',
    `const handle = (${handleSqlRequest.toString()});`,
    'process.on("message", (message) => {',
    '  process.send({ id: message.id, reply: handle(Database, message.request) });',
    '});',
    'process.on("disconnect", () => process.exit(0));',
    'process.send({ ready: true });',
  ].join('\n');
}

function spawnChild(): PooledChild {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const child of everyChild) child.process.kill('SIGKILL');
    });
  }
  const sqliteModule = createRequire(__filename).resolve('better-sqlite3');
  const process_ = spawn(process.execPath, ['-e', childSource()], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Structured clone: blobs arrive as bytes, 64-bit integers as bigint.
    serialization: 'advanced',
    env: { CUELAB_SQLITE_MODULE: sqliteModule, ELECTRON_RUN_AS_NODE: '1' },
  });
  const child: PooledChild = { process: process_, ready: Promise.resolve(), stderr: '' };
  process_.stderr?.on('data', (chunk: Buffer) => {
    child.stderr = (child.stderr + chunk.toString()).slice(-2000);
  });
  child.ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if ((message as { ready?: unknown }).ready !== true) return;
      process_.off('message', onMessage);
      resolve();
    };
    process_.on('message', onMessage);
    process_.once('exit', (code) =>
      reject(
        new SqlStoppedError(
          'crashed',
          `the SQL process could not start (exit ${code}): ${child.stderr.trim()}`,
        ),
      ),
    );
    process_.once('error', reject);
  });
  // Observed by the request that waits for it; this keeps an early failure from going unhandled.
  child.ready.catch(() => undefined);
  process_.once('exit', () => {
    everyChild.delete(child);
    const at = idle.indexOf(child);
    if (at >= 0) idle.splice(at, 1);
  });
  everyChild.add(child);
  return child;
}

async function acquire(signal: AbortSignal | undefined): Promise<PooledChild> {
  for (;;) {
    signal?.throwIfAborted();
    const ready = idle.pop();
    if (ready) return ready;
    if (everyChild.size < poolSize) return spawnChild();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function release(child: PooledChild, healthy: boolean): void {
  if (healthy && child.process.exitCode === null) {
    // An idle child keeps no engine process alive (a CLI command ends when its work does).
    child.process.unref();
    child.process.channel?.unref();
    pipeOf(child)?.unref();
    idle.push(child);
  } else {
    child.process.kill('SIGKILL');
    everyChild.delete(child);
  }
  waiting.shift()?.();
}

/** The child's stderr pipe: a handle of its own, which would keep the engine alive too. */
function pipeOf(child: PooledChild): Socket | null {
  const stderr = child.process.stderr;
  return stderr instanceof Socket ? stderr : null;
}

let nextId = 0;

/**
 * Runs `request` in a pooled child, killing it when `timeoutMs` passes or `signal` aborts
 * (SqlStoppedError). The reply is the child's: a failed script is `ok: false`, not a throw.
 */
export async function runSqlRequest(
  request: SqlRequest,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SqlReply> {
  const child = await acquire(signal);
  let healthy = false;
  try {
    await child.ready;
    child.process.ref();
    child.process.channel?.ref();
    pipeOf(child)?.ref();
    const reply = await exchange(child, request, timeoutMs, signal);
    healthy = true;
    return reply;
  } finally {
    release(child, healthy);
  }
}

function exchange(
  child: PooledChild,
  request: SqlRequest,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<SqlReply> {
  const id = (nextId += 1);
  const subprocess = child.process;
  return new Promise<SqlReply>((resolve, reject) => {
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      subprocess.off('message', onMessage);
      subprocess.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const stop = (reason: 'time' | 'aborted', message: string) => {
      subprocess.kill('SIGKILL');
      finish(() => reject(new SqlStoppedError(reason, message)));
    };
    const onMessage = (message: unknown) => {
      const answer = message as { id?: unknown; reply?: SqlReply };
      if (answer.id === id && answer.reply) finish(() => resolve(answer.reply as SqlReply));
    };
    const onExit = (code: number | null, killedBy: NodeJS.Signals | null) =>
      finish(() =>
        reject(
          new SqlStoppedError(
            'crashed',
            `the SQL process died (${killedBy ?? `exit ${code}`})` +
              (child.stderr.trim() ? `: ${child.stderr.trim()}` : ''),
          ),
        ),
      );
    const onAbort = () => stop('aborted', 'the SQL work was cancelled');
    const timer = setTimeout(() => stop('time', `stopped after ${timeoutMs} ms`), timeoutMs);
    subprocess.on('message', onMessage);
    subprocess.once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    subprocess.send({ id, request });
  });
}
