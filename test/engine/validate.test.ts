/**
 * `cuelab validate` on a reduced seed count (the full run is the command): planted rates are
 * recovered through the real runner, SQLite store and synthetic judge (trajectory-only items, no
 * Docker) and through the model engine; the null judge's tests keep their false-positive rate;
 * and the checks do fail when an interval undercovers. The built binary prints stable JSON.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runValidation, validationChecks } from '../../src/main/engine/runner/validate';

describe('cuelab validate (SIMULATED planted truth)', () => {
  it('recovers planted rates through the runner and keeps coverage and error rates', async () => {
    const report = await runValidation({ replicates: 40, runnerReplicates: 1, items: 50 });
    const failed = report.checks.filter((check) => !check.pass);
    expect(failed).toEqual([]);
    expect(report.pass).toBe(true);
    const runner = report.scenarios.find(
      (scenario) => scenario.engine === 'runner' && scenario.scenario === 'planted',
    );
    // The runner's rows hold every planted arm: 50 gated items in the one replicate.
    expect(runner?.arms.map((arm) => arm.wilsonCoverage.replicates)).toEqual([1, 1, 1, 1]);
    const strong = runner?.arms.find((arm) => arm.condition === 'preset:strong@system');
    expect(strong?.meanRecovered).toBeGreaterThan(0.1);
    expect(strong?.meanRecovered).toBeLessThan(0.4);
    // The planted guard effect (25% → about 7%) is found by McNemar in most model replicates.
    const planted = report.scenarios.find(
      (scenario) => scenario.engine === 'model' && scenario.scenario === 'planted',
    );
    expect(planted?.rejections.McNemar.value).toBeGreaterThan(0.3);
    const nullScenario = report.scenarios.find(
      (scenario) => scenario.engine === 'model' && scenario.scenario === 'null',
    );
    for (const rate of Object.values(nullScenario?.rejections ?? {}))
      expect(rate.value).toBeLessThanOrEqual(0.1);
  }, 240_000);

  it('fails a check when an interval undercovers or a null test rejects too often', () => {
    const share = (value: number) => ({ value, mcError: 0.01, replicates: 400 });
    const arm = {
      condition: 'x',
      truth: 0.25,
      perRepTruth: 0.26,
      meanRecovered: 0.25,
      recoveryError: 0,
      recoveryMcError: 0.002,
      wilsonCoverage: share(0.95),
      clusteredCoverage: share(0.8),
    };
    const rejections = {
      McNemar: share(0.12),
      Fisher: share(0.04),
      'Holm (any in family)': share(0.04),
      'BH (any in family)': share(0.04),
      'beyond placebo': share(0.04),
    };
    const checks = validationChecks([
      {
        scenario: 'null',
        engine: 'model',
        replicates: 400,
        itemsPerReplicate: 50,
        arms: [arm],
        mitigationCoverage: share(0.95),
        rejections,
      },
    ]);
    const failed = checks.filter((check) => !check.pass).map((check) => check.name);
    expect(failed).toEqual([
      'model null x: clustered coverage in 0.93–0.97',
      'model null: McNemar false-positive rate at most 0.07',
    ]);
  });

  it('the built command prints JSON a CI job can read', () => {
    const bin = join(__dirname, '..', '..', 'bin', 'cuelab.js');
    const result = spawnSync(
      process.execPath,
      [bin, 'validate', '--json', '--seeds', '20', '--runner-seeds', '0'],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as {
      simulated: boolean;
      scenarios: { scenario: string; engine: string; replicates: number }[];
      checks: { name: string; pass: boolean }[];
    };
    expect(report.simulated).toBe(true);
    expect(report.scenarios.map((entry) => `${entry.engine} ${entry.scenario}`)).toEqual([
      'model planted',
      'model null',
    ]);
    expect(report.scenarios[0]?.replicates).toBe(20);
    expect(report.checks.length).toBeGreaterThan(20);
    expect(result.status).toBe(report.checks.every((check) => check.pass) ? 0 : 1);
    const bad = spawnSync(process.execPath, [bin, 'validate', '--seeds', 'x'], {
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--seeds takes a whole number/);
  });
});
