/**
 * Small pure pieces of engine supervision: which command starts the engine, how its output
 * splits into lines, how long to wait before a restart, and how an exit is described. No
 * electron import, so all of it runs under plain Node in unit tests.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { EngineAddress } from '../../shared/lab-client';
import { parseReadyLine } from '../../shared/ready-line';

/** A concrete way to start one engine process. */
export interface EngineLaunch {
  /** Executable: a Node binary, or Electron running as Node. */
  command: string;
  /** Arguments after the executable. */
  args: string[];
  /** The child's whole environment. */
  env: NodeJS.ProcessEnv;
  /** Working directory; the parent's when absent. */
  cwd?: string;
}

/**
 * Which runtime runs the engine. In development it is the Node that ran `npm start` (the one
 * better-sqlite3 was built for); a packaged build runs the engine with Electron as Node.
 */
export type EngineRuntime = { kind: 'node' } | { kind: 'electron-as-node'; execPath: string };

/** What `engineLaunch` needs. */
export interface EngineLaunchOptions {
  /** Path of the built engine CLI (`out/main/cli.js`). */
  cliPath: string;
  /** Workspace folder; the engine's own default (flag, CUELAB_WORKSPACE, app data) when absent. */
  workspace?: string | undefined;
  /** Defaults to `{ kind: 'node' }`. */
  runtime?: EngineRuntime;
  /** The parent's environment; `process.env` when absent. */
  env?: NodeJS.ProcessEnv;
}

/** The Node binary that ran `npm start`: `npm_node_execpath`, then `NODE`, then `node` on PATH. */
export function selectNodeCommand(env: NodeJS.ProcessEnv): string {
  for (const candidate of [env.npm_node_execpath, env.NODE]) {
    if (candidate !== undefined && candidate.trim() !== '') return candidate;
  }
  return 'node';
}

/** The command, arguments and environment of `cuelab serve --port 0` for this runtime. */
export function engineLaunch(options: EngineLaunchOptions): EngineLaunch {
  const parentEnv = options.env ?? process.env;
  const runtime = options.runtime ?? { kind: 'node' };
  const args = [options.cliPath, 'serve', '--port', '0', '--exit-with-parent'];
  if (options.workspace) args.push('--workspace', options.workspace);
  if (runtime.kind === 'electron-as-node') {
    return { command: runtime.execPath, args, env: { ...parentEnv, ELECTRON_RUN_AS_NODE: '1' } };
  }
  const env = { ...parentEnv };
  delete env.ELECTRON_RUN_AS_NODE;
  return { command: selectNodeCommand(parentEnv), args, env };
}

/** Feeds text chunks in and calls back once per complete line (without `\n` or `\r\n`). */
export interface LineSplitter {
  push(chunk: string | Buffer): void;
  /** Emits a final line that had no newline. */
  end(): void;
}

/** Splits a stream's chunks into lines; a line or a UTF-8 character may span chunks. */
export function createLineSplitter(onLine: (line: string) => void): LineSplitter {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const emitComplete = (): void => {
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      newline = pending.indexOf('\n');
    }
  };
  return {
    push(chunk) {
      pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      emitComplete();
    },
    end() {
      pending += decoder.end();
      emitComplete();
      if (pending !== '') onLine(pending.endsWith('\r') ? pending.slice(0, -1) : pending);
      pending = '';
    },
  };
}

/** The last few lines of a stream, for error messages. */
export interface LineTail {
  push(line: string): void;
  lines(): string[];
}

/** Keeps the last `limit` non-blank lines. */
export function createLineTail(limit: number): LineTail {
  const kept: string[] = [];
  return {
    push(line) {
      if (line.trim() === '') return;
      kept.push(line);
      if (kept.length > limit) kept.shift();
    },
    lines: () => [...kept],
  };
}

/** Options for `waitForReadyLine`. */
export interface ReadyWaitOptions {
  /** Rejects with a `ReadyTimeoutError` after this long. */
  timeoutMs: number;
  /** Rejects with the signal's reason when aborted (e.g. the process exited). */
  signal?: AbortSignal;
}

/** The engine printed no ready line in time. */
export class ReadyTimeoutError extends Error {
  override readonly name = 'ReadyTimeoutError';
}

/**
 * Resolves with the address in the first ready line `stdout` prints. Other listeners on the
 * stream (logging) keep working; this one detaches when it settles.
 */
export function waitForReadyLine(
  stdout: Readable,
  options: ReadyWaitOptions,
): Promise<EngineAddress> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    const cleanup = (): void => {
      clearTimeout(timer);
      stdout.off('data', onData);
      stdout.off('end', onEnd);
      signal?.removeEventListener('abort', onAbort);
    };
    const settle = (outcome: () => void): void => {
      cleanup();
      outcome();
    };
    const splitter = createLineSplitter((line) => {
      const address = parseReadyLine(line);
      if (address) settle(() => resolve(address));
    });
    const onData = (chunk: string | Buffer): void => splitter.push(chunk);
    const onEnd = (): void => {
      splitter.end();
      settle(() => reject(new Error('The engine closed its output before printing a ready line.')));
    };
    const onAbort = (): void => settle(() => reject(abortReason(signal)));
    const timer = setTimeout(() => {
      settle(() =>
        reject(new ReadyTimeoutError(`No ready line within ${formatSeconds(options.timeoutMs)}.`)),
      );
    }, options.timeoutMs);
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort);
    stdout.on('data', onData);
    stdout.on('end', onEnd);
  });
}

/** Delay before restart number `failures` (1-based): initial, doubled each time, capped. */
export function backoffDelay(failures: number, initialMs: number, maxMs: number): number {
  const exponent = Math.max(0, failures - 1);
  return Math.min(maxMs, initialMs * 2 ** Math.min(exponent, 30));
}

/** How a process ended, in the words `describeExit` uses. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  error?: Error;
}

/** One sentence for a person: how the engine ended and the last thing it said on stderr. */
export function describeExit(exit: ExitInfo, stderrTail: readonly string[]): string {
  let how: string;
  if (exit.error) how = `could not be started (${exit.error.message})`;
  else if (exit.signal) how = `was killed by ${exit.signal}`;
  else how = `exited with code ${exit.code ?? 'unknown'}`;
  const last = stderrTail.at(-1);
  return last ? `The engine ${how}: ${last}` : `The engine ${how}.`;
}

/** "30 s", "0.5 s". */
export function formatSeconds(milliseconds: number): string {
  return `${Number((milliseconds / 1000).toFixed(1))} s`;
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('Stopped waiting for the ready line.');
}
