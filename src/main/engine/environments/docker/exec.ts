/**
 * One command inside a container through the Docker exec API: stdout and stderr apart
 * (`modem.demuxStream`), the exit code, a per-command timeout that kills the process and its
 * descendants, an output cap per stream, and abort. Nothing here runs on the host.
 */
import type Docker from 'dockerode';
import type DockerModem from 'docker-modem';
import { Writable } from 'node:stream';

/** How one exec runs. */
export interface ContainerExecOptions {
  /** User to run as (default: the container's user). */
  user?: string;
  /** Working directory (default: the container's). */
  workdir?: string;
  /** Wall-clock limit; the process and its descendants are killed when it is reached. */
  timeoutMs: number;
  /** Bytes kept of stdout, and separately of stderr; the rest is counted and dropped. */
  maxOutputBytes: number;
  /**
   * Whether the image has GNU coreutils `timeout`: then the command runs under
   * `timeout -s KILL`, which kills its whole process group inside the container even if the
   * engine dies. Otherwise (busybox's `timeout` kills only the direct child) the engine's own
   * deadline kills the process tree.
   */
  useTimeoutCommand: boolean;
  signal?: AbortSignal;
}

/** What one exec produced, as bytes. */
export interface RawExecResult {
  stdout: Buffer;
  stderr: Buffer;
  /** null when the command was killed (timeout, or an output flood). */
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
}

const pidMarker = 'cuelab-pid:';
// Reports the pid (so the engine can kill the command), then becomes the command.
const pidWrapper = `printf '${pidMarker}%s\\n' "$$" >&2; exec "$@"`;
// Stops, then kills, a process and all its descendants (found through /proc/*/status PPid).
const killScript = `kids() { for s in /proc/[0-9]*/status; do
  while read -r k v; do if [ "$k" = PPid: ]; then
    [ "$v" = "$1" ] && { p=\${s#/proc/}; echo "\${p%/status}"; }; break; fi; done 2>/dev/null < "$s"
done; }
tree() { echo "$1"; for c in $(kids "$1"); do tree "$c"; done; }
kill -STOP $(tree "$1") 2>/dev/null; kill -9 $(tree "$1") 2>/dev/null; kill -9 -"$1" 2>/dev/null; true`;
// Past this much dropped output, a flood (e.g. `yes`) is stopped rather than drained.
const floodBytes = 8 * 1024 * 1024;
// With `timeout` in the image, the engine's deadline is only the backstop.
const backstopMs = 1500;
// Once the process has exited, output still in flight gets this long to arrive. A background
// process that keeps the output pipe open does not hold the call beyond it.
const drainMs = 150;
const pollMs = 200;

type Ending = 'running' | 'stream-end' | 'exited' | 'timeout' | 'flood' | 'abort';

/** Runs `argv` in `container`; resolves with its output even when it failed or timed out. */
export async function execInContainer(
  container: Docker.Container,
  argv: readonly string[],
  options: ContainerExecOptions,
): Promise<RawExecResult> {
  const { signal } = options;
  signal?.throwIfAborted();
  const seconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));
  const timeoutPrefix = options.useTimeoutCommand ? ['timeout', '-s', 'KILL', String(seconds)] : [];
  const exec = await container.exec({
    Cmd: ['sh', '-c', pidWrapper, 'sh', ...timeoutPrefix, ...argv],
    AttachStdout: true,
    AttachStderr: true,
    ...(options.user ? { User: options.user } : {}),
    ...(options.workdir ? { WorkingDir: options.workdir } : {}),
  });
  const started = Date.now();
  const stream = await exec.start({ hijack: true, stdin: false });
  const output = new CappedOutput(options.maxOutputBytes);
  (container.modem as DockerModem).demuxStream(stream, output.stdout, output.stderr);

  let ending: Ending = 'running';
  const timers: NodeJS.Timeout[] = [];
  let onAbort: (() => void) | undefined;
  await new Promise<void>((resolve, reject) => {
    const stop = (reason: Ending) => {
      if (ending !== 'running') return;
      ending = reason;
      if (reason !== 'stream-end') stream.destroy();
      resolve();
    };
    stream.on('end', () => stop('stream-end'));
    stream.on('close', () => stop('stream-end'));
    stream.on('error', (error) => (ending === 'running' ? reject(error) : resolve()));
    const deadline = options.timeoutMs + (options.useTimeoutCommand ? backstopMs : 0);
    timers.push(setTimeout(() => stop('timeout'), deadline));
    output.onFlood = () => stop('flood');
    onAbort = () => stop('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) stop('abort');
    const poll = () => {
      exec.inspect().then(
        (info) => {
          if (ending !== 'running') return;
          if (info.Running) timers.push(setTimeout(poll, pollMs));
          else timers.push(setTimeout(() => stop('exited'), drainMs));
        },
        () => undefined, // the stream's own end or error settles the call
      );
    };
    timers.push(setTimeout(poll, pollMs));
  }).finally(() => {
    for (const timer of timers) clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });

  const finished = ending as Ending; // set inside the callbacks above
  if (finished === 'timeout' || finished === 'flood' || finished === 'abort') {
    if (output.pid !== undefined) await killInContainer(container, output.pid, options.user);
    if (finished === 'abort') throw signal?.reason ?? new Error('aborted');
    return output.result(null, finished === 'timeout');
  }
  const exitCode = await exitCodeOf(exec);
  // `timeout -s KILL` reports a killed command as 137 once its limit has passed.
  const killedByTimeout =
    options.useTimeoutCommand && exitCode === 137 && Date.now() - started >= seconds * 1000 - 250;
  return killedByTimeout ? output.result(null, true) : output.result(exitCode, false);
}

/**
 * Kills process `pid` and all its descendants (and its process group) inside `container`, as
 * `user`: the command's own user, since root in a container whose user is not root has no
 * capability to signal other users' processes.
 */
export async function killInContainer(
  container: Docker.Container,
  pid: number,
  user?: string,
): Promise<void> {
  try {
    const exec = await container.exec({
      Cmd: ['sh', '-c', killScript, 'sh', String(pid)],
      ...(user ? { User: user } : {}),
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    stream.resume();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      stream.on('end', done);
      stream.on('close', done);
      stream.on('error', done);
    });
  } catch {
    // The container may already be gone (a disposed rep): nothing is left to kill.
  }
}

async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const info = await exec.inspect();
    if (!info.Running) return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return null;
}

/** Collects stdout and stderr, each under the byte cap; reads the pid line off stderr first. */
class CappedOutput {
  pid: number | undefined;
  onFlood: (() => void) | undefined;
  readonly stdout: Writable;
  readonly stderr: Writable;
  private readonly kept = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  private readonly keptBytes = { stdout: 0, stderr: 0 };
  private dropped = 0;
  private pidLine: Buffer | undefined = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {
    this.stdout = this.sink('stdout');
    this.stderr = this.sink('stderr');
  }

  result(exitCode: number | null, timedOut: boolean): RawExecResult {
    return {
      stdout: Buffer.concat(this.kept.stdout),
      stderr: Buffer.concat(this.kept.stderr),
      exitCode,
      timedOut,
      truncated: this.dropped > 0,
    };
  }

  private sink(name: 'stdout' | 'stderr'): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        this.take(name, name === 'stderr' ? this.stripPid(chunk) : chunk);
        done();
      },
    });
  }

  private stripPid(chunk: Buffer): Buffer {
    if (this.pidLine === undefined) return chunk;
    const line = Buffer.concat([this.pidLine, chunk]);
    const newline = line.indexOf(10);
    const head = line.subarray(0, newline === -1 ? line.length : newline).toString('latin1');
    if (!(pidMarker.startsWith(head) || head.startsWith(pidMarker))) {
      this.pidLine = undefined;
      return line;
    }
    if (newline === -1) {
      this.pidLine = line;
      return Buffer.alloc(0);
    }
    this.pidLine = undefined;
    const pid = Number(head.slice(pidMarker.length));
    if (Number.isInteger(pid) && pid > 0) this.pid = pid;
    return line.subarray(newline + 1);
  }

  private take(name: 'stdout' | 'stderr', chunk: Buffer): void {
    const room = Math.max(0, this.maxBytes - this.keptBytes[name]);
    const keep = Math.min(room, chunk.length);
    if (keep > 0) this.kept[name].push(chunk.subarray(0, keep));
    this.keptBytes[name] += keep;
    this.dropped += chunk.length - keep;
    if (this.dropped > floodBytes) this.onFlood?.();
  }
}
