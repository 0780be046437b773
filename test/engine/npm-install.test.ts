import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReadyLine } from '../../src/shared/ready-line';
import { makeTempDir } from '../helpers/temp-dir';

// Installable anywhere: the package `npm pack` makes installs with `npm install -g` into an
// empty prefix, and its `cuelab` works from a folder outside the repository. The one slow
// engine test: the install fetches the dependencies and compiles better-sqlite3 (75 s of CPU
// on 2 cores; 10 minutes of wall time on this machine's slow registry link).
const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('npm pack and npm install -g', () => {
  const dir = makeTempDir('cuelab-install-');
  afterAll(() => dir.remove());

  it('installs a cuelab whose demo, doctor and serve work from an empty folder', async () => {
    const packs = join(dir.path, 'packs');
    const prefix = join(dir.path, 'prefix');
    const elsewhere = join(dir.path, 'empty');
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(packs, { recursive: true });
    await run(npm, ['pack', '--pack-destination', packs], { cwd: root, maxBuffer: 1 << 24 });
    const tarball = readdirSync(packs).find((name) => /^cuelab-.+\.tgz$/.test(name));
    expect(tarball).toBeDefined();
    // --prefer-offline: the dependencies come from the npm cache the project's own install filled
    // (a fresh clone's `npm ci`), so the test measures the package, not the registry link.
    await run(
      npm,
      [
        'install',
        '-g',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--prefix',
        prefix,
        join(packs, tarball ?? ''),
      ],
      {
        cwd: elsewhere,
        maxBuffer: 1 << 24,
      },
    );
    const cuelab = join(prefix, 'bin', 'cuelab');
    expect(existsSync(cuelab)).toBe(true);
    // Nothing of the repository is reachable from there: not its folder, not its modules.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CUELAB_WORKSPACE: join(dir.path, 'ws'),
      DOCKER_HOST: 'unix:///nonexistent/docker.sock',
      NODE_PATH: '',
    };
    delete env.CUELAB_RESOURCES;

    const doctor = await run(cuelab, ['doctor'], { cwd: elsewhere, env });
    expect(doctor.stdout).toMatch(/^\[ok {2}\] Node: /m);
    expect(doctor.stdout).toMatch(/^\[warn\] Docker: Docker is not reachable/m);
    expect(doctor.stdout).toMatch(/^ +fix: .*docker/m);

    const demo = await run(cuelab, ['demo'], { cwd: elsewhere, env, maxBuffer: 1 << 26 });
    expect(demo.stdout).toContain('[108/108] 100%');
    expect(demo.stdout).toMatch(/^Figure: .+\.png \(\d+×\d+ PNG\)$/m);
    expect(demo.stdout).toContain('[18/18] 100%');

    // `cuelab serve` serves the lab: its page and an API call with the token.
    const child = spawn(cuelab, ['serve'], { cwd: elsewhere, env });
    try {
      const address = await new Promise<ReturnType<typeof parseReadyLine>>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          for (const line of text.split('\n')) {
            const parsed = parseReadyLine(line);
            if (parsed) resolve(parsed);
          }
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${text}`)));
      });
      expect(address).not.toBeNull();
      const page = await fetch(`${address?.baseUrl}?token=${address?.token}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<div id="root">/);
    } finally {
      child.kill('SIGTERM');
    }
  }, 1_500_000);
});
