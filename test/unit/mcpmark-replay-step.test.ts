import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { psqlStep } from '../../src/main/engine/suites/import/mcpmark-state';
import { makeTempDir } from '../helpers/temp-dir';

// An MCPMark run's replayed SQL is a stranger's text run in `setup` as root. psql runs `-c`
// text that starts with a backslash as a meta-command (`\!` is a shell), so the step must
// never hand psql such text: here a stand-in psql on PATH records what it was given.
const dirs: ReturnType<typeof makeTempDir>[] = [];
afterEach(() => {
  while (dirs.length) dirs.pop()?.remove();
});

function argumentPsqlGets(sql: string): string {
  const dir = makeTempDir();
  dirs.push(dir);
  const fake = join(dir.path, 'psql');
  writeFileSync(fake, `#!/bin/sh\nfor last; do :; done\nprintf '%s' "$last" > "${dir.path}/got"\n`);
  chmodSync(fake, 0o755);
  const result = spawnSync('sh', ['-c', psqlStep(sql)], {
    env: { PATH: `${dir.path}:/usr/bin:/bin` },
  });
  expect(result.status).toBe(0);
  return readFileSync(join(dir.path, 'got'), 'utf8');
}

describe('a replayed MCPMark statement', () => {
  it('never reaches psql starting with a backslash, and keeps the SQL as it was', () => {
    for (const sql of ['\\! touch /pwned', '\\connect - postgres', "SELECT 'a\\b'; -- $x `y`"]) {
      const got = argumentPsqlGets(sql);
      expect(got.startsWith('\\')).toBe(false);
      expect(got).toBe(`-- replayed by CueLab\n${sql}`);
    }
  });
});
