import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { browserCommand, electronBinary } from '../../scripts/start.mjs';
import { makeTempDir } from '../helpers/temp-dir';

describe('npm start: the Electron window or the lab in a browser', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it('uses the Electron binary its package recorded and installed', () => {
    const electronDir = join(dir.path, 'installed');
    mkdirSync(join(electronDir, 'dist'), { recursive: true });
    writeFileSync(join(electronDir, 'path.txt'), 'electron');
    writeFileSync(join(electronDir, 'dist', 'electron'), '');
    expect(electronBinary(electronDir, {})).toEqual({
      binary: join(electronDir, 'dist', 'electron'),
      reason: null,
    });
  });

  it('falls back, saying why, when the download never ran or the binary is gone', () => {
    const neverDownloaded = join(dir.path, 'never');
    mkdirSync(neverDownloaded);
    expect(electronBinary(neverDownloaded, {})).toEqual({
      binary: null,
      reason: "Electron's binary was never downloaded (npm install could not reach its host)",
    });
    const gone = join(dir.path, 'gone');
    mkdirSync(gone);
    writeFileSync(join(gone, 'path.txt'), 'electron');
    expect(electronBinary(gone, {}).reason).toBe(
      `Electron's binary is missing (${join(gone, 'dist', 'electron')})`,
    );
    expect(electronBinary(join(dir.path, 'absent'), {}).reason).toBe('Electron is not installed');
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH as Electron itself does', () => {
    const override = join(dir.path, 'override');
    mkdirSync(override);
    writeFileSync(join(override, 'electron'), '');
    const electronDir = join(dir.path, 'never-downloaded');
    mkdirSync(electronDir);
    expect(electronBinary(electronDir, { ELECTRON_OVERRIDE_DIST_PATH: override }).binary).toBe(
      join(override, 'electron'),
    );
  });

  it('opens the browser with the platform opener, and not at all without a display', () => {
    const url = 'http://127.0.0.1:1/?token=t';
    expect(browserCommand('linux', { DISPLAY: ':0' }, url)).toEqual({
      command: 'xdg-open',
      args: [url],
    });
    expect(browserCommand('linux', { WAYLAND_DISPLAY: 'wayland-0' }, url)?.command).toBe(
      'xdg-open',
    );
    expect(browserCommand('linux', {}, url)).toBeNull();
    expect(browserCommand('darwin', {}, url)).toEqual({ command: 'open', args: [url] });
    expect(browserCommand('win32', {}, url)?.args).toEqual(['/c', 'start', '""', url]);
  });
});
