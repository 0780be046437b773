/**
 * A 126 KB `.eval` whose central directory lists 60 samples that all point at one deflated
 * 120 MiB sample used to take the engine down (V8 out of memory), through the CLI and through
 * the served Import preview. Real processes, the real built CLI and `cuelab serve`; each
 * child's peak RSS is read from /proc/<pid>/status (VmHWM) while it runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabClient, type EngineAddress } from '../../src/shared/lab-client';
import { parseReadyLine } from '../../src/shared/ready-line';
import { makeTempDir } from '../helpers/temp-dir';
import { bigSample, inspectHeader, writeZip } from '../helpers/zip-writer';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const built = join(root, 'out', 'main', 'cli.js');
const mebibyte = 1024 * 1024;
const rssLimit = 600 * mebibyte;

/** The bomb: header.json, one 120 MiB sample, 60 central entries all pointing at it. */
function sharedSampleBomb(): Buffer {
  const sample = bigSample('samples/1_epoch_1.json', 120 * mebibyte);
  const rows = [
    { name: 'header.json', file: 0 },
    ...Array.from({ length: 60 }, (_, index) => ({
      name: `samples/${index + 1}_epoch_1.json`,
      file: 1,
    })),
  ];
  return writeZip([inspectHeader(), sample], rows);
}

/** Peak resident memory of a running process, in bytes (0 once it is gone). */
function peakRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Follows a child's peak RSS until it exits; `stop()` ends the watch and gives the peak. */
function watchRss(child: ChildProcess): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    if (child.pid) peak = Math.max(peak, peakRss(child.pid));
  }, 10);
  return () => {
    clearInterval(timer);
    if (child.pid) peak = Math.max(peak, peakRss(child.pid));
    return peak;
  };
}

const env: NodeJS.ProcessEnv = { ...process.env };
delete env.CUELAB_ENGINE;
delete env.CUELAB_TOKEN;
delete env.CUELAB_WORKSPACE;

describe('an .eval whose entries share one 120 MiB sample', { timeout: 180_000 }, () => {
  const dir = makeTempDir();
  const bombPath = join(dir.path, 'bomb.eval');
  let bomb: Buffer;
  let serve: ChildProcess | undefined;

  beforeAll(() => {
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first.`);
    bomb = sharedSampleBomb();
    writeFileSync(bombPath, bomb);
  });
  afterAll(async () => {
    if (serve && serve.exitCode === null) {
      const exited = new Promise((resolve) => serve?.once('exit', resolve));
      serve.kill('SIGTERM');
      await exited;
    }
    dir.remove();
  });

  it('is small on disk', () => {
    expect(bomb.length).toBeLessThan(200 * 1024);
  });

  it('is refused by `cuelab suite import` naming the limit, in bounded memory', async () => {
    const workspace = join(dir.path, 'cli-workspace');
    const child = spawn(
      process.execPath,
      [bin, 'suite', 'import', bombPath, '--format', 'inspect', '--workspace', workspace],
      { env },
    );
    const stop = watchRss(child);
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    const peak = stop();
    expect(output).toMatch(/share data \(overlapping entries/);
    expect(output).not.toMatch(/heap out of memory/i);
    expect(code).not.toBe(0);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(rssLimit);
  });

  it('is refused by the served Import preview (save: false); the engine still answers', async () => {
    const workspace = join(dir.path, 'served-workspace');
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--workspace', workspace], {
      env,
    });
    serve = child;
    const stop = watchRss(child);
    const address = await new Promise<EngineAddress>((resolve, reject) => {
      let buffered = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const newline = buffered.indexOf('\n');
        const parsed = newline >= 0 ? parseReadyLine(buffered.slice(0, newline)) : undefined;
        if (parsed) resolve(parsed);
      });
      child.once('exit', (code) => reject(new Error(`cuelab serve exited early (${code})`)));
    });
    const lab = createLabClient(address);
    const uploaded = await lab.uploadImportFiles({
      name: 'bomb-upload',
      pieces: [{ path: 'bomb.eval', data: bomb.toString('base64'), append: false }],
    });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    const preview = await lab.importRuns({
      path: uploaded.value.path,
      format: 'inspect',
      save: false,
    });
    const said = preview.ok
      ? JSON.stringify(preview.value.skipped)
      : `${preview.error.message} ${JSON.stringify(preview.error.issues ?? [])}`;
    expect(said).toMatch(/share data \(overlapping entries/);
    if (preview.ok) expect(preview.value.imported).toEqual([]);
    const health = await lab.health({});
    expect(health.ok).toBe(true);
    expect(child.exitCode).toBeNull();
    const peak = stop();
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(rssLimit);
  });
});
