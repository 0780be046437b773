/**
 * Part (e), starting: the engine's time from spawning `cuelab serve` to its ready line, and a
 * CLI command's time from spawning `node bin/cuelab.js` to its first HTTP request. The command
 * is `cuelab --engine URL status STUDY --json` against the running engine through a forwarding
 * proxy that notes when the first request arrives: what a command pays before it does anything
 * (loading the CLI's code, parsing, connecting), without a model server or a workspace opened
 * in the CLI's process. Both count Node's own start.
 */
import { spawn } from 'node:child_process';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startServeProcess, type ServeProcess } from '../test/helpers/serve-process';
import { now, round } from './measure';

const bin = join(__dirname, '..', 'bin', 'cuelab.js');

/** `cuelab serve` started, with its time to the ready line. */
export async function timedServe(
  workspace: string,
): Promise<{ serve: ServeProcess; readyMs: number }> {
  const started = now();
  const serve = await startServeProcess(workspace);
  return { serve, readyMs: round(now() - started) };
}

/** One CLI command's times: to its first request and to its exit. */
export interface CliStart {
  firstRequestMs: number;
  exitMs: number;
}

/** A proxy to `target` that resolves `first` with the time its first request arrived. */
function firstRequestProxy(target: URL) {
  let firstAt: number | undefined;
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    firstAt ??= now();
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        // The engine checks Host against its own address.
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      ),
    firstAt: () => firstAt,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Spawns `cuelab --engine <proxy> status STUDY --json` and times it. */
export async function timedCliStart(serve: ServeProcess, studyId: string): Promise<CliStart> {
  const proxy = firstRequestProxy(new URL(serve.address.baseUrl));
  const port = await proxy.listen();
  try {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.CUELAB_ENGINE;
    delete env.CUELAB_TOKEN;
    const started = now();
    const child = spawn(
      process.execPath,
      [
        bin,
        '--engine',
        `http://127.0.0.1:${String(port)}/`,
        '--token',
        serve.address.token,
        'status',
        studyId,
        '--json',
      ],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const exitMs = now() - started;
    const firstAt = proxy.firstAt();
    if (code !== 0 || firstAt === undefined)
      throw new Error(`cuelab status exited with ${String(code)}: ${stderr.slice(0, 400)}`);
    return { firstRequestMs: round(firstAt - started), exitMs: round(exitMs) };
  } finally {
    await proxy.close();
  }
}
