/**
 * Starts a real `cuelab serve` (the built `out/main/cli.js`) on a fresh temporary workspace
 * and waits for its ready line. Every e2e test that needs an engine uses this.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { EngineAddress } from '../../../src/shared/lab-client';
import { parseReadyLine } from '../../../src/shared/ready-line';

/** The repository root. */
export const repoRoot = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

/** The built engine command line. */
export const cliPath = join(repoRoot, 'out', 'main', 'cli.js');

/** A running engine and how to stop it. */
export interface RunningEngine {
  /** Where the engine listens, token included. */
  address: EngineAddress;
  /** The URL the ready line printed, token included: what a person would open. */
  url: string;
  /** The workspace folder it serves. */
  workspace: string;
  /** Everything the engine wrote to stdout and stderr so far (for failure messages). */
  output: () => string;
  /** Stops the engine (SIGTERM, then SIGKILL after a grace period) and removes a temp workspace. */
  stop: () => Promise<void>;
}

/** Options for `startEngine`. */
export interface StartEngineOptions {
  /** Workspace folder; a fresh temporary one (removed on stop) when absent. */
  workspace?: string;
  /** How long to wait for the ready line. */
  readyTimeoutMs?: number;
  /** Extra environment for the engine. */
  env?: NodeJS.ProcessEnv;
  /** False: no `--allow-path` for the repository and the temp folder (as `npm start` runs). */
  allowRepository?: boolean;
}

/** Fails with the command to run when the build the e2e tests need is missing. */
export function assertBuilt(): void {
  const missing = [cliPath, join(repoRoot, 'out', 'renderer', 'index.html')].filter(
    (path) => !existsSync(path),
  );
  if (missing.length > 0) {
    throw new Error(
      `The e2e tests need a build; missing ${missing.join(', ')}. Run: npx electron-vite build`,
    );
  }
}

/** Spawns `node out/main/cli.js serve --workspace DIR --port 0` and waits until it is ready. */
export async function startEngine(options: StartEngineOptions = {}): Promise<RunningEngine> {
  assertBuilt();
  const ownsWorkspace = options.workspace === undefined;
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'cuelab-e2e-workspace-'));
  const child = spawn(
    process.execPath,
    // The import tests type paths to the repository's fixtures and to temporary files.
    [cliPath, 'serve', '--workspace', workspace, '--port', '0'].concat(
      options.allowRepository === false ? [] : ['--allow-path', repoRoot, '--allow-path', tmpdir()],
    ),
    {
      cwd: repoRoot,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (output += chunk));

  const stop = async () => {
    await stopChild(child);
    if (ownsWorkspace) rmSync(workspace, { recursive: true, force: true });
  };

  try {
    const { address, url } = await waitForReadyLine(
      child,
      options.readyTimeoutMs ?? 30_000,
      (line) => (output += `${line}\n`),
      () => output,
    );
    return { address, url, workspace, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitForReadyLine(
  child: ChildProcessByStdio<null, Readable, Readable>,
  timeoutMs: number,
  onLine: (line: string) => void,
  output: () => string,
): Promise<{ address: EngineAddress; url: string }> {
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout });
    const finish = (error: Error | null, result?: { address: EngineAddress; url: string }) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      lines.off('line', onReadyLine);
      // Keep draining stdout so a chatty engine never blocks on a full pipe.
      lines.on('line', onLine);
      if (error) reject(error);
      else if (result) resolvePromise(result);
    };
    const onReadyLine = (line: string) => {
      onLine(line);
      const address = parseReadyLine(line);
      if (address) {
        finish(null, { address, url: `${address.baseUrl}?token=${address.token}` });
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      finish(
        new Error(
          `cuelab serve exited (${signal ?? `code ${code}`}) before it was ready:\n${output()}`,
        ),
      );
    const timer = setTimeout(
      () =>
        finish(
          new Error(`cuelab serve printed no ready line within ${timeoutMs} ms:\n${output()}`),
        ),
      timeoutMs,
    );
    lines.on('line', onReadyLine);
    child.once('exit', onExit);
  });
}

async function stopChild(child: ChildProcessByStdio<null, Readable, Readable>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
