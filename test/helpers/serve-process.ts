/**
 * A real `cuelab serve` child process (the built CLI) on a workspace, with a LabApi client and
 * its peak resident memory, for tests that must see the engine keep answering while one
 * request does something hostile.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLabClient, type EngineAddress } from '../../src/shared/lab-client';
import { parseReadyLine } from '../../src/shared/ready-line';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const built = join(root, 'out', 'main', 'cli.js');

/** A running `cuelab serve`. */
export interface ServeProcess {
  child: ChildProcess;
  address: EngineAddress;
  lab: ReturnType<typeof createLabClient>;
  /** Highest resident memory seen so far, in bytes. */
  peakRss(): number;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

function residentPeak(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Starts `cuelab serve --port 0` on `workspace` and resolves once it prints its ready line. */
export async function startServeProcess(
  workspace: string,
  extraArgs: string[] = [],
): Promise<ServeProcess> {
  if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first.`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CUELAB_ENGINE;
  delete env.CUELAB_TOKEN;
  delete env.CUELAB_WORKSPACE;
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--workspace', workspace, ...extraArgs],
    { env },
  );
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, residentPeak(child.pid))), 10);
  let output = '';
  const address = await new Promise<EngineAddress>((resolve, reject) => {
    let buffered = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      const parsed = newline >= 0 ? parseReadyLine(buffered.slice(0, newline)) : undefined;
      if (parsed) resolve(parsed);
    });
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`cuelab serve exited early (${String(code)}): ${output}`));
    });
  });
  return {
    child,
    address,
    lab: createLabClient(address),
    peakRss: () => (peak = Math.max(peak, residentPeak(child.pid))),
    async stop() {
      clearInterval(timer);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
