/**
 * (o) `cuelab demo` without Docker: the wall time of the whole command (a fresh workspace, the
 * Docker client pointed at no socket, as on a laptop without Docker), from spawn to exit, with
 * the load average around it. The target: tables and a figure in under two minutes on 2 cores.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { now, round } from './measure';

/** What part (o) measured. */
export interface OfflineDemoResult {
  wallSeconds: number;
  exitCode: number | null;
  figureWritten: boolean;
  reps: string[];
  loadBefore: number;
  loadAfter: number;
  targetSeconds: number;
}

/** Runs the built `cuelab demo` once without Docker and times it. */
export async function benchOfflineDemo(log: (line: string) => void): Promise<OfflineDemoResult> {
  const bin = join(__dirname, '..', 'bin', 'cuelab.js');
  const workspace = mkdtempSync(join(tmpdir(), 'cuelab-bench-demo-'));
  const loadBefore = loadavg()[0] ?? 0;
  const started = now();
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (resolve) => {
        const child = spawn(process.execPath, [bin, 'demo'], {
          env: {
            ...process.env,
            CUELAB_WORKSPACE: workspace,
            DOCKER_HOST: 'unix:///nonexistent/docker.sock',
          },
        });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', (exit) => resolve({ code: exit, output: text }));
      },
    );
    const wallSeconds = round((now() - started) / 1000);
    const figure = /^Figure: (.+\.png) /m.exec(output)?.[1];
    const result: OfflineDemoResult = {
      wallSeconds,
      exitCode: code,
      figureWritten: figure !== undefined && existsSync(figure),
      reps: [...output.matchAll(/\[(\d+\/\d+)\] 100%/g)].map((match) => match[1] ?? ''),
      loadBefore: round(loadBefore, 2),
      loadAfter: round(loadavg()[0] ?? 0, 2),
      targetSeconds: 120,
    };
    log(
      `  cuelab demo without Docker: ${wallSeconds} s (exit ${code}, figure ${result.figureWritten ? 'written' : 'MISSING'}, ` +
        `reps ${result.reps.join(' + ')}, load ${result.loadBefore} -> ${result.loadAfter}; target < 120 s)`,
    );
    if (code !== 0) throw new Error(`cuelab demo exited ${code}:\n${output.slice(-2000)}`);
    return result;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
