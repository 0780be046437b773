import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReadyLine } from '../../src/shared/ready-line';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const hasElectronBinary = existsSync(join(root, 'node_modules', 'electron', 'path.txt'));

describe('npm start without an Electron binary', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it.skipIf(hasElectronBinary)(
    'says why in one line, serves the lab, prints its URL, and the URL serves the lab',
    async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, CUELAB_WORKSPACE: dir.path };
      delete env.DISPLAY;
      delete env.WAYLAND_DISPLAY;
      delete env.ELECTRON_OVERRIDE_DIST_PATH;
      const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], { env });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const lines: string[] = [];
      const ready = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          if (parseReadyLine(line)) resolve(line);
        });
        void exited.then((code) => reject(new Error(`npm start exited early (${code})`)));
      });
      expect(lines[0]).toBe(
        "Electron's binary was never downloaded (npm install could not reach its host), " +
          'so the lab opens in your browser instead.',
      );
      expect(lines).toHaveLength(2);
      const url = ready.replace(/^CueLab engine ready at (\S+).*$/, '$1');
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<title>CueLab</title>');
      expect(html).toContain('id="root"');
      const address = parseReadyLine(ready);
      const health = await fetch(new URL('/api/health', address?.baseUrl), {
        headers: { authorization: `Bearer ${address?.token}` },
      });
      expect(((await health.json()) as { value: { workspace: string } }).value.workspace).toBe(
        dir.path,
      );

      // Stopping npm start stops the engine it started.
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
  );
});
