/**
 * The paper's meta-judge ensemble shipped as resources/ensembles/paper-meta-judge.yaml: it passes
 * the ensemble schema with App. N's voters and App. R's settings, Opus-4.7 breaks a split, and
 * `cuelab classify --voters` finds it by name (a wrong name lists the shipped ones).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseEnsembleConfig, tieBreakerOf } from '../../src/main/engine/metajudge/ensemble/voters';
import { makeTempDir } from '../helpers/temp-dir';

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'cuelab.js');

describe('the paper-meta-judge ensemble preset', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());

  it('has App. N’s three voters with App. R’s settings and Opus-4.7 as tie-breaker', () => {
    const path = join(root, 'resources', 'ensembles', 'paper-meta-judge.yaml');
    const config = parseEnsembleConfig(parseYaml(readFileSync(path, 'utf8')) as unknown, path);
    expect(config.voters.map((voter) => voter.id)).toEqual([
      'opus-4-7',
      'deepseek-r1',
      'llama-4-maverick',
    ]);
    const [opus, deepseek, llama] = config.voters;
    expect(opus).toMatchObject({ provider: 'anthropic', thinking: { type: 'adaptive' } });
    expect(deepseek?.thinking).toBeUndefined();
    expect(deepseek?.thinkStepByStep).toBe(false);
    expect(llama?.thinkStepByStep).toBe(true);
    // App. R: no temperature on the ensemble path.
    expect(config.voters.every((voter) => voter.temperature === undefined)).toBe(true);
    expect(tieBreakerOf(config)).toMatchObject({ voter: { id: 'opus-4-7' }, member: true });
  });

  it('is found by name by cuelab classify, and a wrong name lists the shipped ones', () => {
    const run = (voters: string) =>
      spawnSync(
        process.execPath,
        [bin, 'classify', 'no-such-study', '--voters', voters, '--workspace', dir.path],
        {
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
    const byName = run('paper-meta-judge');
    expect(byName.status).toBe(1);
    // The preset was read and accepted; what stops the command is the missing study.
    expect(byName.stderr).not.toMatch(/voters file/);
    expect(byName.stderr).toMatch(/no-such-study/);
    const wrong = run('paper-meta-jduge');
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(
      /Cannot read the voters file paper-meta-jduge: .*shipped ensembles: paper-meta-judge/,
    );
  });
});
