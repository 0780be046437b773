/**
 * What the built `cuelab` loads before it does a command's work: dependencies that only some
 * commands need (Docker's client, the model SDKs, the WebSocket library, the tar writer) are
 * required when first used, so a command that never touches them does not pay for loading them
 * (docs/BENCHMARK.md, "Start-up"). Real processes of the built CLI; what they loaded is read
 * from their module cache as they exit.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');
const built = join(root, 'out', 'main', 'cli.js');

/** Packages a command need not load. */
const notNeeded = ['dockerode', '@anthropic-ai/sdk', 'openai', 'ws', 'tar-stream', 'ssh2'];

describe('the built cuelab loads only what a command uses', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  beforeAll(() => {
    if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first.`);
  });
  afterEach(() => {
    while (dirs.length) dirs.pop()?.remove();
  });

  /** Runs the CLI and returns its exit code and the packages its process had loaded. */
  function packagesLoadedBy(args: string[]): { status: number | null; packages: string[] } {
    const dir = makeTempDir();
    dirs.push(dir);
    const list = join(dir.path, 'loaded.json');
    const preload = join(dir.path, 'preload.js');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, ` +
        'JSON.stringify(Object.keys(require.cache))));\n',
    );
    const run = spawnSync(process.execPath, ['--require', preload, bin, ...args], {
      encoding: 'utf8',
      env: { ...process.env, CUELAB_WORKSPACE: join(dir.path, 'workspace') },
    });
    const files = JSON.parse(readFileSync(list, 'utf8')) as string[];
    const packages = new Set(
      files.flatMap((file) => {
        const tail = file.split('node_modules/').at(-1) ?? '';
        if (tail === file) return [];
        const parts = tail.split('/');
        return [parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '')];
      }),
    );
    return { status: run.status, packages: [...packages].sort() };
  }

  it('--version loads none of them', () => {
    const { status, packages } = packagesLoadedBy(['--version']);
    expect(status).toBe(0);
    expect(packages.filter((name) => notNeeded.includes(name))).toEqual([]);
  });

  it('a command on the workspace opens its database and loads none of them', () => {
    const { status, packages } = packagesLoadedBy(['cues', 'list']);
    expect(status).toBe(0);
    expect(packages).toContain('better-sqlite3');
    expect(packages.filter((name) => notNeeded.includes(name))).toEqual([]);
  });
});
