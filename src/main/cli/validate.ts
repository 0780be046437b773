/**
 * `cuelab validate [--json] [--seeds N]`: planted-truth validation of the instrument (engine/
 * runner/validate.ts). Synthetic judges with known harmful-flip rates, a known mitigation effect
 * and a null judge go through the analysis every table uses; a few replicates also go through the
 * real runner, store and synthetic judge. Offline, no Docker, no model. Everything is SIMULATED.
 * Exit 0 when every check passes, 1 when one fails.
 */
import { parseArgs } from 'node:util';
import { runValidation } from '../engine/machine';
import { exitCodes, UsageError, type CliCommand, type CliIo } from './command';

function whole(text: string | undefined, flag: string, fallback: number, low: number) {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < low || value > 100_000)
    throw new UsageError(`${flag} takes a whole number from ${low}, got "${text}"`);
  return value;
}

const share = (value: { value: number; mcError: number }) =>
  `${value.value.toFixed(3)} ± ${value.mcError.toFixed(3)}`;

/** `cuelab validate`. */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Check the statistics on planted truth: recovery, coverage, false positives (SIMULATED)',
  usage: `Usage: cuelab validate [--json] [--seeds N] [--runner-seeds N] [--items N] [--seed S]

Runs synthetic judges whose harmful-flip rates are planted (a strong cue at 25%, a placebo at
5%, the guard's simulated effect; and a null judge whose cue does nothing beyond the placebo and
whose mitigations do nothing) through CueLab's analysis, and reports per scenario the recovery
error of each planted rate, the coverage of the Wilson and item-clustered intervals, the
coverage of the paired mitigation interval, and the rejection rate of every reported test
(exact McNemar, Fisher, Holm, Benjamini-Hochberg, beyond placebo), each with its Monte-Carlo
error. In the null scenario those are false-positive rates. A replicate is one set of items;
the model replicates draw from the synthetic judge's model directly, the runner replicates go
through the real runner, store and synthetic judge (slower: about 25 s per replicate).

  --seeds N         model replicates per scenario (default 200)
  --runner-seeds N  replicates through the real runner (default 1; 0 to skip)
  --items N         items per replicate (default 50)
  --seed S          the study seed (default 17)
  --json            print the report as JSON (stable field names, for CI)`,
  async run(args, io: CliIo) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        seeds: { type: 'string' },
        'runner-seeds': { type: 'string' },
        items: { type: 'string' },
        seed: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw new UsageError('validate takes no positional arguments');
    const report = await runValidation({
      replicates: whole(values.seeds, '--seeds', 200, 2),
      runnerReplicates: whole(values['runner-seeds'], '--runner-seeds', 1, 0),
      items: whole(values.items, '--items', 50, 2),
      seed: whole(values.seed, '--seed', 17, 0),
    });
    if (values.json) io.out(JSON.stringify(report, null, 2));
    else {
      io.out('SIMULATED: planted-truth validation (synthetic judges, no model was called)');
      for (const scenario of report.scenarios) {
        io.out(
          `\n${scenario.scenario} (${scenario.engine}, ${scenario.replicates} replicates × ` +
            `${scenario.itemsPerReplicate} items)`,
        );
        for (const arm of scenario.arms)
          io.out(
            `  ${arm.condition}: truth ${(arm.truth * 100).toFixed(1)}%, recovered ` +
              `${(arm.meanRecovered * 100).toFixed(1)}% (error ${(arm.recoveryError * 100).toFixed(2)} ` +
              `± ${(arm.recoveryMcError * 100).toFixed(2)} pp); Wilson coverage ` +
              `${share(arm.wilsonCoverage)}; clustered coverage ${share(arm.clusteredCoverage)}`,
          );
        io.out(
          `  mitigation effect, Newcombe paired coverage ${share(scenario.mitigationCoverage)}`,
        );
        for (const [test, rate] of Object.entries(scenario.rejections))
          io.out(
            `  ${test}: ${scenario.scenario === 'null' ? 'false-positive rate' : 'rejects'} ${share(rate)}`,
          );
      }
      io.out('');
      for (const check of report.checks)
        io.out(`${check.pass ? 'pass' : 'FAIL'}  ${check.name}: ${check.detail}`);
      io.out(report.pass ? '\nAll checks pass.' : '\nSome checks FAIL.');
    }
    return report.pass ? exitCodes.ok : exitCodes.failed;
  },
};
