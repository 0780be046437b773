import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseReadyLine } from '../../src/shared/ready-line';
import { makeTempDir } from '../helpers/temp-dir';

const bin = join(__dirname, '..', '..', 'bin', 'cuelab.js');
const built = join(__dirname, '..', '..', 'out', 'main', 'cli.js');

/**
 * True while process `pid` runs. A zombie (exited, not yet reaped: state Z in /proc/PID/stat)
 * has stopped running even though `kill(pid, 0)` still finds it; where the re-parented engine
 * is adopted by a reaper that never reaps (a container's init), that is all it will be.
 */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return false;
  }
  try {
    process.kill(pid, 0); // no /proc (macOS): the signal probe is all there is
    return true;
  } catch {
    return false;
  }
}

/** The state and parent of `pid` (from /proc where there is one) and its stderr file. */
function engineState(pid: number, stderrFile: string): string {
  let state = '';
  try {
    state = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').slice(0, 7).join('; ');
  } catch {
    state = `pid ${pid} (no /proc)`;
  }
  return `${state}\n${existsSync(stderrFile) ? readFileSync(stderrFile, 'utf8') : ''}`;
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

describe('the cuelab binary (built)', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  const tempDir = () => {
    const dir = makeTempDir();
    dirs.push(dir);
    return dir.path;
  };
  beforeAll(() => {
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first.`);
  });
  afterEach(() => {
    while (dirs.length) dirs.pop()?.remove();
  });

  it('serve prints one ready line, answers health with the token, and stops on SIGTERM', async () => {
    const workspace = tempDir();
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      env: { ...process.env, CUELAB_WORKSPACE: workspace },
    });
    const line = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        buffered += chunk;
        const newline = buffered.indexOf('\n');
        if (newline >= 0) resolve(buffered.slice(0, newline));
      });
      child.once('exit', (code) => reject(new Error(`engine exited early (${code})`)));
    });
    expect(line).toContain(`(workspace: ${workspace})`);
    const address = parseReadyLine(line);
    expect(address).not.toBeNull();
    if (!address) return;

    const health = await fetch(new URL('/api/health', address.baseUrl), {
      headers: { authorization: `Bearer ${address.token}` },
    });
    const body = (await health.json()) as { value: { workspace: string } };
    expect(body.value.workspace).toBe(workspace);
    expect((await fetch(new URL('/api/health', address.baseUrl))).status).toBe(401);

    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(existsSync(join(workspace, 'cuelab.sqlite'))).toBe(true);
  });

  it('refuses a workspace whose database is newer, with exit 1 and the reason', () => {
    const workspace = tempDir();
    const db = new Database(join(workspace, 'cuelab.sqlite'));
    db.pragma('user_version = 999');
    db.close();
    const result = spawnSync(process.execPath, [bin, 'serve', '--workspace', workspace], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('schema version 999');
    expect(result.stderr).toContain('upgrade CueLab');
  });

  it('with --exit-with-parent, stops once the process that started it is gone', async () => {
    const workspace = tempDir();
    const parentScript = `
      const { spawn } = require('node:child_process');
      const err = require('node:fs').openSync(${JSON.stringify(join(workspace, 'engine.err'))}, 'w');
      const engine = spawn(process.execPath, [${JSON.stringify(bin)}, 'serve', '--exit-with-parent'], {
        stdio: ['ignore', 'pipe', err],
        env: { ...process.env, CUELAB_WORKSPACE: ${JSON.stringify(workspace)} },
      });
      engine.stdout.once('data', () => { process.stdout.write(String(engine.pid) + '\\n'); process.exit(0); });
    `;
    const parent = spawnSync(process.execPath, ['-e', parentScript], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    const enginePid = Number(parent.stdout.trim());
    expect(enginePid).toBeGreaterThan(0);
    // Within serve's own stop deadline (15 s), whatever the machine's load.
    const deadline = Date.now() + 20_000;
    while (isRunning(enginePid) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const stillRunning = isRunning(enginePid);
    // What the engine was doing, for the failure message: its state, parent and stderr.
    const why = stillRunning ? engineState(enginePid, join(workspace, 'engine.err')) : '';
    if (stillRunning) process.kill(enginePid, 'SIGKILL');
    expect(stillRunning, why).toBe(false);
  }, 45_000);

  it('stops within seconds even while Docker hangs (orphan cleanup cancelled, no crash)', async () => {
    // A "Docker engine" that accepts connections and never answers: the orphan cleanup at
    // start hangs on it. Stopping must cancel it rather than wait, and the runner must never
    // start afterwards on the closed database.
    const sockets = new Set<Socket>();
    const blackHole = createNetServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port } = blackHole.address() as AddressInfo;
    try {
      const workspace = tempDir();
      const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
        env: {
          ...process.env,
          CUELAB_WORKSPACE: workspace,
          DOCKER_HOST: `tcp://127.0.0.1:${port}`,
        },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`engine exited early (${code})`)));
      });
      await until(() => sockets.size > 0, 10_000); // the cleanup is waiting on Docker
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const stopAsked = Date.now();
      child.kill('SIGTERM');
      const code = await Promise.race([
        exit,
        new Promise<'lingering'>((resolve) => setTimeout(() => resolve('lingering'), 8000)),
      ]);
      if (code === 'lingering') child.kill('SIGKILL');
      expect(code).toBe(0);
      expect(Date.now() - stopAsked).toBeLessThan(8000);
      expect(stderr).not.toMatch(/database connection is not open|TypeError|at .*\.js:\d+/);
    } finally {
      for (const socket of sockets) socket.destroy();
      blackHole.close();
    }
  });

  it('exits 2 on an unknown command', () => {
    const result = spawnSync(process.execPath, [bin, 'frobnicate'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });
});
