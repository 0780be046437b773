/**
 * The desktop packaging config (electron-builder.yml) as far as it can be checked without
 * downloading Electron: the three installers are configured, every file and resource it names
 * exists after `npx electron-vite build`, and the packaged engine finds the resources where
 * extraResources puts them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const root = join(__dirname, '..', '..');

const configSchema = z.object({
  appId: z.string().min(1),
  productName: z.string().min(1),
  directories: z.object({ output: z.string() }),
  files: z.array(z.string()).min(1),
  extraResources: z.array(z.object({ from: z.string(), to: z.string() })).min(1),
  asarUnpack: z.array(z.string()),
  linux: z.object({ target: z.string() }),
  mac: z.object({ target: z.string() }),
  win: z.object({ target: z.string() }),
});

const config = configSchema.parse(parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')));

describe('electron-builder.yml', () => {
  it('builds an AppImage, a dmg and an NSIS installer', () => {
    expect([config.linux.target, config.mac.target, config.win.target]).toEqual([
      'AppImage',
      'dmg',
      'nsis',
    ]);
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/);
    expect(config.asarUnpack).toContain('**/*.node');
  });

  it('names only files that the build made, and the package main among them', () => {
    if (!existsSync(join(root, 'out', 'main', 'app.js')))
      throw new Error('out/main/app.js is missing: run "npx electron-vite build" first.');
    const pkg = z
      .object({ main: z.string() })
      .parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
    for (const pattern of config.files) {
      const base = pattern.replace(/\/\*\*$/, '');
      expect(existsSync(join(root, base)), pattern).toBe(true);
      if (pattern.endsWith('/**'))
        expect(readdirSync(join(root, base)).length, pattern).toBeGreaterThan(0);
    }
    expect(config.files.some((pattern) => pkg.main.startsWith(pattern.replace('**', '')))).toBe(
      true,
    );
    // The main process starts the engine from the same folder (src/main/app/index.ts).
    expect(existsSync(join(root, 'out', 'main', 'cli.js'))).toBe(true);
    expect(existsSync(join(root, 'out', 'renderer', 'index.html'))).toBe(true);
    expect(config.directories.output).toBe('dist');
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toMatch(/^dist\/$/m);
  });

  it('ships the resources the engine reads, where the packaged app points it', () => {
    const resources = config.extraResources.find((entry) => entry.from === 'resources');
    expect(resources?.to).toBe('resources');
    for (const folder of ['suites', 'studies', 'runs', 'cue-families'])
      expect(existsSync(join(root, 'resources', folder)), folder).toBe(true);
    const shell = readFileSync(join(root, 'src', 'main', 'app', 'index.ts'), 'utf8');
    expect(shell).toContain("CUELAB_RESOURCES: join(process.resourcesPath, 'resources')");
  });
});
