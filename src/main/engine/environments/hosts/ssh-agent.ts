/**
 * An HTTP agent whose sockets are ssh channels running `docker system dial-stdio` on the host, as
 * the docker CLI does for `ssh://` hosts. docker-modem's own ssh transport hands the HTTP client
 * a bare ssh channel, which lacks the socket methods a request timeout needs (`setTimeout`) and
 * so crashes the process; here each channel gets them, and keep-alive reuses channels so one
 * handshake serves many API calls.
 */
import { Agent } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createRequire } from 'node:module';
import type * as Ssh2 from 'ssh2';
import type { Client, ConnectConfig } from 'ssh2';

/** What Node's HTTP client calls on a socket beyond reading and writing. */
interface SocketMethods {
  setTimeout(ms: number, onTimeout?: () => void): Duplex;
  setNoDelay(): Duplex;
  setKeepAlive(): Duplex;
  ref(): Duplex;
  unref(): Duplex;
}

/**
 * Gives `stream` the socket methods HTTP uses: an inactivity timeout that emits 'timeout' like a
 * net.Socket's, and ref/unref on the ssh connection's TCP socket so an idle kept-alive channel
 * never holds the process open.
 */
function asSocket(stream: Duplex, tcp: Socket | undefined): Duplex & SocketMethods {
  let timeoutMs = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    if (timeoutMs > 0) {
      timer = setTimeout(() => stream.emit('timeout'), timeoutMs);
      timer.unref();
    }
  };
  const push = stream.push.bind(stream);
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.push = (chunk: unknown, encoding?: BufferEncoding) => {
    arm();
    return push(chunk, encoding);
  };
  stream.write = ((...args: unknown[]) => {
    arm();
    return write(...args);
  }) as Duplex['write'];
  stream.once('close', () => clearTimeout(timer));
  const socket = stream as Duplex & SocketMethods;
  socket.setTimeout = (ms, onTimeout) => {
    timeoutMs = ms;
    // As net.Socket: a callback is added once, and `setTimeout(0, callback)` removes it.
    if (onTimeout && ms === 0) stream.removeListener('timeout', onTimeout);
    else if (onTimeout) stream.once('timeout', onTimeout);
    arm();
    return stream;
  };
  socket.setNoDelay = () => stream;
  socket.setKeepAlive = () => stream;
  socket.ref = () => {
    tcp?.ref();
    return stream;
  };
  socket.unref = () => {
    tcp?.unref();
    return stream;
  };
  return socket;
}

/**
 * An HTTP agent reaching the Docker API of an ssh host; `destroy()` ends its connections.
 * `onDialError` hears what `docker system dial-stdio` wrote to stderr on the host (why the
 * socket is about to end: no engine there, no docker CLI).
 */
export function sshDockerAgent(
  config: ConnectConfig,
  onDialError: (text: string) => void = () => undefined,
): Agent {
  const agent = new Agent({ keepAlive: true, maxFreeSockets: 4 });
  const create = (
    _options: unknown,
    done: (error: Error | null, socket?: Duplex) => void,
  ): undefined => {
    const client = newSshClient();
    let settled = false;
    const fail = (error: Error) => {
      client.end();
      if (settled) return;
      settled = true;
      done(error);
    };
    client
      .once('ready', () => {
        client.exec('docker system dial-stdio', (error, channel) => {
          if (error) return fail(error);
          settled = true;
          // The TCP socket under the ssh connection (ssh2 keeps it private).
          const tcp = (client as unknown as { _sock?: Socket })._sock;
          channel.once('close', () => client.end());
          // No docker CLI (or no engine) on the host: say so instead of "socket hang up".
          let stderr = '';
          channel.stderr.on('data', (chunk: Buffer) => {
            stderr = (stderr + chunk.toString()).slice(-500);
            onDialError(stderr.trim());
          });
          channel.once('exit', (code: number | null) => {
            if (code) {
              const failure = `\`docker system dial-stdio\` on the host exited ${code}: ${stderr.trim()}`;
              channel.emit('error', new Error(failure));
              channel.destroy();
            }
          });
          done(null, asSocket(channel, tcp));
        });
      })
      .on('error', fail)
      .connect(config);
    return undefined;
  };
  (agent as unknown as { createConnection: typeof create }).createConnection = create;
  return agent;
}

/** ssh2 (and its crypto) is required only when an ssh:// host is first reached. */
function newSshClient(): Client {
  const ssh2 = createRequire(__filename)('ssh2') as typeof Ssh2;
  return new ssh2.Client();
}
