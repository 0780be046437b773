/** Runs the built `cuelab` CLI (bin/cuelab.js) as a child process and collects its output. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const bin = join(__dirname, '..', '..', 'bin', 'cuelab.js');

/** `cuelab ARGS` with `env` over this process's environment; resolves when it exits. */
export function runCuelab(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
