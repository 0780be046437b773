/**
 * Starts `cuelab serve` as a child process, waits for its ready line, restarts it with backoff
 * when it dies, and stops it on request. No electron import: the shell wires it to IPC, and
 * the tests drive it under plain Node against real child processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { EngineChange } from '../../shared/native-bridge';
import {
  backoffDelay,
  createLineSplitter,
  createLineTail,
  describeExit,
  formatSeconds,
  ReadyTimeoutError,
  waitForReadyLine,
  type EngineLaunch,
  type ExitInfo,
} from './engine-launch';

export {
  ReadyTimeoutError,
  backoffDelay,
  createLineSplitter,
  createLineTail,
  describeExit,
  engineLaunch,
  selectNodeCommand,
  waitForReadyLine,
} from './engine-launch';
export type { EngineLaunch } from './engine-launch';

/** Options of an `EngineSupervisor`; only `launch` is required. */
export interface EngineSupervisorOptions {
  /** How to start the engine (see `engineLaunch`); tests point it at any script. */
  launch: EngineLaunch;
  /** How long a fresh engine may take to print its ready line. Default 30 s. */
  readyTimeoutMs?: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL. Default 5 s. */
  stopTimeoutMs?: number;
  /** First restart delay; doubles per consecutive failure. Default 0.5 s. */
  initialBackoffMs?: number;
  /** Cap of the restart delay. Default 8 s. */
  maxBackoffMs?: number;
  /** Consecutive failures after which the supervisor gives up. Default 5. */
  maxRapidFailures?: number;
  /** An engine that served this long before dying resets the failure count. Default 60 s. */
  stableAfterMs?: number;
  /** Receives every line the engine prints, e.g. to forward it to the shell's log. */
  onOutput?: (stream: 'stdout' | 'stderr', line: string) => void;
}

/** Events of an `EngineSupervisor`. */
export interface EngineSupervisorEvents {
  /** An engine is ready: the first one (restarts 0) or a replacement. */
  ready: [change: EngineChange];
  /** An engine ended without `stop()`; `reason` says how. A restart follows unless `failed`. */
  exit: [reason: string];
  /** The supervisor gave up; no further restarts. */
  failed: [error: Error];
}

interface RunningEngine {
  child: ChildProcess;
  exited: Promise<ExitInfo>;
  pid: number | undefined;
}

interface Waiter {
  resolve: (change: EngineChange) => void;
  reject: (error: Error) => void;
}

/** Supervises one engine process at a time. */
export class EngineSupervisor extends EventEmitter<EngineSupervisorEvents> {
  private readonly options: Required<Omit<EngineSupervisorOptions, 'onOutput'>> &
    Pick<EngineSupervisorOptions, 'onOutput'>;
  private running: RunningEngine | undefined;
  private current: EngineChange | undefined;
  private waiters: Waiter[] = [];
  private restarts = 0;
  private consecutiveFailures = 0;
  private lastReason: string | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private started = false;
  private readonly allowedFolders = new Set<string>();
  private stopped = false;
  private fatal: Error | undefined;

  constructor(options: EngineSupervisorOptions) {
    super();
    this.options = {
      readyTimeoutMs: 30_000,
      stopTimeoutMs: 5_000,
      initialBackoffMs: 500,
      maxBackoffMs: 8_000,
      maxRapidFailures: 5,
      stableAfterMs: 60_000,
      ...options,
    };
  }

  /** Starts the first engine; resolves when it is ready (same as `whenReady`). */
  start(): Promise<EngineChange> {
    if (!this.started && !this.stopped) {
      this.started = true;
      this.launch();
    }
    return this.whenReady();
  }

  /** The ready engine's address, waiting through a start or restart if one is under way. */
  whenReady(): Promise<EngineChange> {
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.stopped) return Promise.reject(stoppedError());
    if (this.current) return Promise.resolve(this.current);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** The process id of the running engine, if any. */
  get pid(): number | undefined {
    return this.running?.pid;
  }

  /**
   * Lets the engine read files in `folder` by path, now and after any restart: the user chose a
   * file there in a native dialog. Only this process can say so (the engine's IPC channel).
   */
  allowFolder(folder: string): void {
    this.allowedFolders.add(folder);
    this.running?.child.send?.({ allowFolder: folder });
  }

  /** SIGTERM, then SIGKILL after `stopTimeoutMs`; resolves once no engine runs. No restarts. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.current = undefined;
    this.rejectWaiters(stoppedError());
    const running = this.running;
    if (running) await terminate(running, this.options.stopTimeoutMs);
  }

  private launch(): void {
    const { launch, readyTimeoutMs, onOutput } = this.options;
    const child = spawn(launch.command, launch.args, {
      env: launch.env,
      cwd: launch.cwd,
      // The IPC channel carries folders the user picked in a dialog (allowFolder).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      windowsHide: true,
    });
    const exited = new Promise<ExitInfo>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      child.once('error', (error) => {
        if (child.pid === undefined) resolve({ code: null, signal: null, error });
      });
    });
    const running: RunningEngine = { child, exited, pid: child.pid };
    this.running = running;
    // A restarted engine keeps the folders the user chose before.
    for (const folder of this.allowedFolders) child.send?.({ allowFolder: folder });

    const stderrTail = createLineTail(20);
    const stdoutLines = createLineSplitter((line) => onOutput?.('stdout', line));
    const stderrLines = createLineSplitter((line) => {
      stderrTail.push(line);
      onOutput?.('stderr', line);
    });
    child.stdout?.on('data', (chunk: Buffer) => stdoutLines.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderrLines.push(chunk));

    const exitSignal = new AbortController();
    let readyAt: number | undefined;
    let failure: string | undefined;
    if (child.stdout) {
      waitForReadyLine(child.stdout, { timeoutMs: readyTimeoutMs, signal: exitSignal.signal }).then(
        (address) => {
          if (this.running !== running || this.stopped) return;
          readyAt = Date.now();
          const change: EngineChange = { address, restarts: this.restarts };
          if (this.restarts > 0 && this.lastReason) change.reason = this.lastReason;
          this.current = change;
          const waiters = this.waiters;
          this.waiters = [];
          for (const waiter of waiters) waiter.resolve(change);
          this.emit('ready', change);
        },
        (error: unknown) => {
          if (!(error instanceof ReadyTimeoutError) || this.running !== running) return;
          if (this.stopped) return;
          failure = readyTimeoutMessage(readyTimeoutMs, stderrTail.lines());
          void terminate(running, this.options.stopTimeoutMs);
        },
      );
    }

    void exited.then((exit) => {
      exitSignal.abort(new Error('The engine exited before it was ready.'));
      stdoutLines.end();
      stderrLines.end();
      if (this.running === running) this.running = undefined;
      if (this.stopped) return;
      this.current = undefined;
      const reason = failure ?? describeExit(exit, stderrTail.lines());
      this.emit('exit', reason);
      this.afterFailure(reason, readyAt);
    });
  }

  private afterFailure(reason: string, readyAt: number | undefined): void {
    const ranStably = readyAt !== undefined && Date.now() - readyAt >= this.options.stableAfterMs;
    this.consecutiveFailures = ranStably ? 1 : this.consecutiveFailures + 1;
    this.lastReason = reason;
    const { maxRapidFailures, initialBackoffMs, maxBackoffMs } = this.options;
    if (this.consecutiveFailures >= maxRapidFailures) {
      const times = this.consecutiveFailures === 1 ? 'once' : `${this.consecutiveFailures} times`;
      this.fatal = new Error(
        `The CueLab engine failed ${times} in a row, so CueLab stopped restarting it. ${reason}`,
      );
      this.rejectWaiters(this.fatal);
      this.emit('failed', this.fatal);
      return;
    }
    const delay = backoffDelay(this.consecutiveFailures, initialBackoffMs, maxBackoffMs);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopped) return;
      this.restarts += 1;
      this.launch();
    }, delay);
  }

  private rejectWaiters(error: Error): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }
}

/** The message of a start that printed no ready line, with the engine's last stderr lines. */
export function readyTimeoutMessage(timeoutMs: number, stderrTail: readonly string[]): string {
  const said =
    stderrTail.length > 0
      ? ` Its last stderr lines:\n${stderrTail.map((line) => `  ${line}`).join('\n')}`
      : ' It wrote nothing to stderr.';
  return `The engine did not print its ready line within ${formatSeconds(timeoutMs)}.${said}`;
}

function stoppedError(): Error {
  return new Error('The CueLab engine was stopped.');
}

/** SIGTERM, wait up to `timeoutMs`, then SIGKILL; resolves once the process has exited. */
async function terminate(running: RunningEngine, timeoutMs: number): Promise<void> {
  const { child, exited } = running;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}
