/**
 * `cuelab estimate SPEC` through the built binary on a real workspace: the Builder's reps and
 * time, the power lines from a synthetic persona or an entered baseline, the items a named
 * difference needs (the same numbers src/shared/power.ts gives), and clear refusals of bad input.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { itemsNeeded, minimumDetectableDifference } from '../../src/shared/power';
import { makeTempDir } from '../helpers/temp-dir';

const bin = join(__dirname, '..', '..', 'bin', 'cuelab.js');

describe('cuelab estimate', () => {
  const dir = makeTempDir();
  afterAll(() => dir.remove());
  const spec = (judges: unknown[], limit: number) => {
    const path = join(dir.path, `spec-${limit}-${judges.length}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        name: 'power check',
        suite: 'cuelab-mini',
        items: { limit },
        judges,
        dimension: 'task_success',
        reps: 3,
        seed: 17,
        direction: 'both',
        arms: { cues: [{ kind: 'preset', preset: 'strong' }], placements: ['system'] },
        concurrency: { total: 2, containers: 2 },
      }),
    );
    return path;
  };
  const estimate = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'estimate', ...args, '--workspace', dir.path], {
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('counts the uncued repeat among the uncued reps and says so', () => {
    const path = join(dir.path, 'spec-repeat.json');
    const judge = {
      id: 's',
      provider: 'synthetic',
      model: 'synthetic',
      persona: 'deferential-frontier',
    };
    const base = { name: 'repeat', suite: 'cuelab-mini', items: { limit: 4 }, judges: [judge] };
    writeFileSync(path, JSON.stringify({ ...base, arms: { uncuedRepeat: true } }));
    const result = estimate(path);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      /^4 items × 1 judges × 3 conditions × 3 reps = 36 reps \(24 uncued with the uncued repeat, at most 12 cued\)/m,
    );
    writeFileSync(path, JSON.stringify(base));
    expect(estimate(path).stdout).toMatch(/= 24 reps \(12 uncued, at most 12 cued\)/);
  });

  it('takes the baseline from a synthetic persona and marks it a simulation', () => {
    const synthetic = {
      id: 's',
      provider: 'synthetic',
      model: 'synthetic',
      persona: 'deferential-frontier',
    };
    const result = estimate(spec([synthetic], 40), '--detect', '0.10');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^40 items × 1 judges × 2 conditions × 3 reps = 360 reps/m);
    // 360 reps × 5,870 B of rows, plus the trajectories once per arm: about 2 MB.
    expect(result.stdout).toMatch(
      /^Disk: about 2 MB \(5,870 B of rows per rep .*once per arm \(\d\)\)$/m,
    );
    expect(result.stdout).toMatch(/synthetic persona deferential-frontier, a simulation/);
    expect(result.stdout).toMatch(/for the exact McNemar test on item-majority verdicts/);
    expect(result.stdout).toMatch(/ICC 0\.64 \(assumed, between reps of one item\)/);
    expect(result.stdout).toMatch(/Items needed to detect 10\.0 percentage points: \d+ per judge/);
  });

  it('uses an entered baseline for a real judge and prints the formula’s numbers', () => {
    const real = { id: 'opus', provider: 'anthropic', model: 'claude-opus-4-7' };
    const path = spec([real], 40);
    const without = estimate(path);
    expect(without.status).toBe(0);
    expect(without.stdout).toMatch(/give --baseline RATE/);
    const result = estimate(path, '--baseline', '0.2', '--detect', '0.1', '--accuracy', '0.75');
    expect(result.status).toBe(0);
    const design = { items: 40, reps: 3, baseline: 0.2, uncuedAccuracy: 0.75, icc: 0.64 };
    expect(result.stdout).toContain('= 30 gated items per arm');
    const difference = minimumDetectableDifference(design) as number;
    expect(result.stdout).toContain(
      `Minimum detectable difference: ${(difference * 100).toFixed(1)} percentage points`,
    );
    expect(result.stdout).toContain(
      `detect 10.0 percentage points: ${itemsNeeded(design, 0.1)} per judge`,
    );
  });

  it('names Fisher for two studies on different items, with its own MDD', () => {
    const real = { id: 'opus', provider: 'anthropic', model: 'claude-opus-4-7' };
    const result = estimate(spec([real], 56), '--baseline', '0.3', '--unpaired');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/for the Fisher exact test on item-majority verdicts/);
    const design = { items: 56, reps: 3, baseline: 0.3, uncuedAccuracy: 0.734, icc: 0.64 };
    const fisher = minimumDetectableDifference({ ...design, test: 'Fisher exact' }) as number;
    // Arms independent given the item: pairing gains (almost) nothing, so the two MDDs are close.
    expect(fisher).not.toBe(minimumDetectableDifference(design));
    expect(Math.abs(fisher - (minimumDetectableDifference(design) as number))).toBeLessThan(0.03);
    expect(result.stdout).toContain(`${(fisher * 100).toFixed(1)} percentage points`);
  });

  it('refuses a baseline out of range, a spec that does not parse and one that is not valid', () => {
    const real = { id: 'opus', provider: 'anthropic', model: 'claude-opus-4-7' };
    const outOfRange = estimate(spec([real], 5), '--baseline', '2');
    expect(outOfRange.status).toBe(2);
    expect(outOfRange.stderr).toMatch(/--baseline takes a number from 0\.001 to 0\.999, got "2"/);
    const broken = join(dir.path, 'broken.json');
    writeFileSync(broken, '{"name": 3');
    const unparsed = estimate(broken);
    expect(unparsed.status).toBe(1);
    expect(unparsed.stderr).toMatch(/does not parse/);
    const invalid = join(dir.path, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ name: 'x', reps: 0 }));
    const rejected = estimate(invalid);
    expect(rejected.status).toBe(1);
    expect(rejected.stderr).toMatch(/reps/);
  });
});
