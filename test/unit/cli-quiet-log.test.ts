// Build output on `cuelab demo` / `cuelab run`: one terminal line per build, every line in the log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { quietProgress } from '../../src/main/cli/quiet-log';
import { makeTempDir } from '../helpers/temp-dir';

describe('quiet build progress', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it('prints one line naming the log and writes every line to it', () => {
    const printed: string[] = [];
    const io = {
      out: (line: string) => printed.push(line),
      err: (line: string) => printed.push(line),
    };
    const log = join(dir.path, 'build.log');
    const progress = quietProgress(io, log, 'building the base image');
    for (let step = 1; step <= 300; step += 1) progress(`Step ${step}: unpacking package-${step}`);
    expect(printed).toEqual([`  building the base image (full output: ${log})`]);
    const written = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(written[0]).toBe('building the base image');
    expect(written).toHaveLength(301);
    expect(written[300]).toBe('Step 300: unpacking package-300');
  });
});
