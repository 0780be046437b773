/**
 * (u) How fast the engine starts: `cuelab serve`'s time from spawn to its ready line (a new
 * workspace, then one that exists), and `cuelab run`'s time from spawn to the fake model
 * server's first request (a files-only suite, so no Docker, the real Anthropic SDK against a
 * local fake server). Each is a fresh process of the built CLI (`npm run build` first), run
 * a few times in turn; the medians are printed with the load average.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModelServer, type FakeModelServer } from '../test/helpers/fake-model-server';
import { deferentialJudge } from '../test/helpers/scripted-judge';
import { now, round, rounded, summarize, type Summary } from './measure';

const root = join(__dirname, '..');
/** The CLI to start: the built one, or another build's cli.js (CUELAB_BENCH_CLI, for before/after). */
const bin = process.env.CUELAB_BENCH_CLI ?? join(root, 'bin', 'cuelab.js');

/** What part (u) measured, in milliseconds. */
export interface StartupResult {
  runs: number;
  /** `cuelab serve` on a workspace folder that does not exist yet: spawn to ready line. */
  serveNewWorkspaceMs: Summary;
  /** `cuelab serve` on a workspace that exists: spawn to ready line. */
  serveExistingWorkspaceMs: Summary;
  /** `cuelab run SPEC`: spawn to the fake model server's first request. */
  runFirstRequestMs: Summary;
  /** `cuelab --version`: spawn to exit (loading the CLI and nothing else). */
  versionMs: Summary;
  /** The same starts' CPU (user + system) at that point, from /proc (NaN off Linux). */
  cpuMs: { serveNewWorkspace: Summary; serveExistingWorkspace: Summary; runFirstRequest: Summary };
  loadBefore: number;
  loadAfter: number;
}

const childEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'bench-key' };
  delete env.CUELAB_ENGINE;
  delete env.CUELAB_TOKEN;
  delete env.CUELAB_WORKSPACE;
  return env;
};

/**
 * CPU milliseconds (user + system) process `pid` has used so far, from /proc (Linux; 10 ms
 * ticks), or NaN elsewhere. Less moved by other processes on the machine than wall time.
 */
function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Wall and CPU milliseconds of one start. */
interface StartTime {
  ms: number;
  cpuMs: number;
}

/** Spawns the CLI and resolves with its exit code and output. */
function cuelab(
  args: string[],
  onSpawn?: (pid: number | undefined) => void,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: childEnv() });
    onSpawn?.(child.pid);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** Time from spawning `cuelab serve` to its ready line; the engine is stopped after. */
async function serveReadyMs(workspace: string): Promise<StartTime> {
  const started = now();
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--workspace', workspace], {
    env: childEnv(),
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    return await new Promise<StartTime>((resolve, reject) => {
      let buffered = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        buffered += chunk;
        if (buffered.includes('\n')) resolve({ ms: now() - started, cpuMs: cpuMsOf(child.pid) });
      });
      child.once('exit', (code) => reject(new Error(`cuelab serve exited early (${code})`)));
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Time from spawning `cuelab run` to the fake server's first request. */
async function runFirstRequestMs(
  workspace: string,
  specPath: string,
  model: FakeModelServer,
): Promise<StartTime> {
  const before = model.requests().length;
  let first: StartTime | null = null;
  let pid: number | undefined;
  const started = now();
  const watch = setInterval(() => {
    if (first === null && model.requests().length > before)
      first = { ms: now() - started, cpuMs: cpuMsOf(pid) };
  }, 1);
  const outcome = await cuelab(
    ['run', specPath, '--workspace', workspace, '--trust-endpoint', model.url],
    (spawned) => (pid = spawned),
  );
  clearInterval(watch);
  if (outcome.code !== 0) throw new Error(`cuelab run exited ${outcome.code}:\n${outcome.output}`);
  if (first === null) throw new Error('cuelab run made no request');
  return first;
}

/** Runs part (u): each measurement `runs` times, in turn. */
export async function benchStartup(log: (line: string) => void, runs = 5): Promise<StartupResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-bench-startup-'));
  const model = await startFakeModelServer();
  model.handle('anthropic', deferentialJudge());
  const loadBefore = loadavg()[0] ?? 0;
  try {
    const specPath = join(dir, 'spec.json');
    writeFileSync(
      specPath,
      JSON.stringify({
        name: 'startup',
        suite: 'fixture-suite',
        judges: [
          { id: 'fake', provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: model.url },
        ],
        reps: 1,
        items: { limit: 1 },
        concurrency: { total: 1, containers: 1 },
      }),
    );
    const runWorkspace = join(dir, 'run-workspace');
    const imported = await cuelab([
      'suite',
      'import',
      join(root, 'test', 'fixtures', 'mini-suite.json'),
      '--workspace',
      runWorkspace,
    ]);
    if (imported.code !== 0) throw new Error(`suite import failed:\n${imported.output}`);
    const existing = join(dir, 'serve-existing');
    await serveReadyMs(existing);
    const version: number[] = [];
    const serveNew: StartTime[] = [];
    const serveExisting: StartTime[] = [];
    const run: StartTime[] = [];
    for (let index = 0; index < runs; index += 1) {
      const started = now();
      await cuelab(['--version']);
      version.push(now() - started);
      serveNew.push(await serveReadyMs(join(dir, `serve-new-${index}`)));
      serveExisting.push(await serveReadyMs(existing));
      run.push(await runFirstRequestMs(runWorkspace, specPath, model));
    }
    const wall = (times: StartTime[]) => rounded(summarize(times.map((time) => time.ms)));
    const cpu = (times: StartTime[]) => rounded(summarize(times.map((time) => time.cpuMs)));
    const result: StartupResult = {
      runs,
      versionMs: rounded(summarize(version)),
      serveNewWorkspaceMs: wall(serveNew),
      serveExistingWorkspaceMs: wall(serveExisting),
      runFirstRequestMs: wall(run),
      cpuMs: {
        serveNewWorkspace: cpu(serveNew),
        serveExistingWorkspace: cpu(serveExisting),
        runFirstRequest: cpu(run),
      },
      loadBefore: round(loadBefore, 2),
      loadAfter: round(loadavg()[0] ?? 0, 2),
    };
    const line = (label: string, wallMs: Summary, cpuMs: Summary) =>
      log(`  ${label}: ${wallMs.median} ms wall, ${cpuMs.median} ms CPU (medians of ${runs})`);
    log(`  cuelab --version: ${result.versionMs.median} ms wall`);
    line(
      'serve to its ready line, new workspace',
      result.serveNewWorkspaceMs,
      result.cpuMs.serveNewWorkspace,
    );
    line(
      'serve to its ready line, existing workspace',
      result.serveExistingWorkspaceMs,
      result.cpuMs.serveExistingWorkspace,
    );
    line('run to the first model request', result.runFirstRequestMs, result.cpuMs.runFirstRequest);
    log(`  load ${result.loadBefore} -> ${result.loadAfter}`);
    return result;
  } finally {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const runs = Number(process.argv[2] ?? 5);
  benchStartup((line) => console.log(line), runs).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
