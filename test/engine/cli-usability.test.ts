import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir';

const bin = join(__dirname, '..', '..', 'bin', 'cuelab.js');

describe('cuelab for a person who mistypes', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());
  const workspace = join(dir.path, 'workspace');

  function cuelab(...args: string[]) {
    return spawnSync(process.execPath, [bin, ...args], {
      encoding: 'utf8',
      env: { ...process.env, CUELAB_WORKSPACE: workspace },
      timeout: 60_000,
    });
  }

  it('suggests the command meant, and exits 2', () => {
    const result = cuelab('stauts');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown command "stauts". Did you mean "status"?');
    expect(cuelab('suite', 'lst').stderr).toContain('unknown action "lst". Did you mean "list"?');
    expect(cuelab('--verison').stderr).toContain('Did you mean "--version"?');
  });

  it("names a mistyped flag in plain words with the flag meant, never Node's wording", () => {
    const result = cuelab('report', 'latest', '--tabel', 'flips');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'cuelab report: unknown option "--tabel". Did you mean "--table"?\n' +
        'Run "cuelab report --help" for usage.\n',
    );
    expect(result.stderr).not.toMatch(/positional|Unknown option '/);
    expect(cuelab('report', 'latest', '--table').stderr).toContain('--table needs a value.');
  });

  it('read commands say a workspace does not exist, exit 1, and create nothing', () => {
    const typo = join(dir.path, 'wokrspace');
    for (const args of [
      ['status', '--workspace', typo],
      ['report', 'latest', '--table', 'flips', '--workspace', typo],
      ['suite', 'list', '--workspace', typo],
    ]) {
      const result = cuelab(...args);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`there is no workspace at ${typo}`);
      expect(result.stderr).toContain('nothing was created');
      expect(result.stdout).toBe('');
    }
    const fromEnvironment = cuelab('status');
    expect(fromEnvironment.status).toBe(1);
    expect(fromEnvironment.stderr).toContain('the $CUELAB_WORKSPACE folder has no cuelab.sqlite');
    expect(existsSync(typo)).toBe(false);
    expect(existsSync(workspace)).toBe(false);
    expect(readdirSync(dir.path)).toEqual([]);
  });
});
