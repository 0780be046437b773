/**
 * `cuelab estimate SPEC`: what a study would take before it runs (reps, cost, time, as the
 * Builder's estimate) and what it can detect: the minimum detectable difference in item-level
 * harmful-flip rate at 80% power and α = 0.05 for the test the tables run (exact McNemar on
 * item-majority verdicts, or Fisher for two studies on different items), and the items a named
 * difference needs (src/shared/power.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import {
  comparedRate,
  gatedItems,
  itemsNeeded,
  minimumDetectableDifference,
  PAPER_UNCUED_ACCURACY,
  perRepRate,
  type PowerTest,
} from '../../shared/power';
import { CommandError, exitCodes, UsageError, type CliCommand, type CliIo } from './command';
import { openLab, unwrap } from './connection';
import { formatBytes } from '../engine/machine';
import { formatSeconds } from './progress';
import { studySpecSchema } from '../../shared/study-spec';

/** CueLab's rep agreement (0.8) squared, when neither a persona nor --icc gives one. */
const DEFAULT_ICC = 0.64;

function fraction(text: string | undefined, flag: string, low: number, high: number) {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < low || value > high)
    throw new UsageError(`${flag} takes a number from ${low} to ${high}, got "${text}"`);
  return value;
}

function readSpec(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CommandError(`Cannot read the study spec ${path}: ${(error as Error).message}.`);
  }
  try {
    return parseYaml(text, { maxAliasCount: 100 }) as unknown;
  } catch (error) {
    throw new CommandError(`The study spec ${path} does not parse: ${(error as Error).message}`);
  }
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** `cuelab estimate`. */
export const estimateCommand: CliCommand = {
  name: 'estimate',
  summary: 'Estimate a spec before launch: reps, cost, time and statistical power',
  usage: `Usage: cuelab estimate SPEC [--baseline RATE] [--detect DIFF] [--accuracy A] [--icc R]
                       [--unpaired] [--workspace DIR]

Prints the reps, cost and time the study would take (as the Builder's estimate) and its
power: the minimum detectable difference (MDD) in item-level harmful-flip rate (the rate the
tables print: majority of reps) between two arms at 80% power and alpha = 0.05, for the test
the tables run: exact McNemar on item-majority verdicts for two arms on the same items (a
mitigation before/after, Table 1; cuelab compare on shared items). Power is exact (every
outcome enumerated); the arms are taken as independent given the item, which is conservative.

  --baseline RATE  the harmful-flip rate to compare against (0-1); default: the synthetic
                   judge's persona (SIMULATED), required for a real judge
  --detect DIFF    also print the items needed to detect this difference (e.g. 0.10)
  --accuracy A     share of items the uncued judge gets right (the gate); default 0.734,
                   the mean of Table 5's uncued accuracies
  --icc R          intra-item correlation of reps; default the persona's, else 0.64. It does
                   not change the item-level test's power; it converts the rates to per rep
  --unpaired       power for Fisher's exact test (cuelab compare of two studies on
                   different items) instead of McNemar`,
  async run(args, io: CliIo, context) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        baseline: { type: 'string' },
        detect: { type: 'string' },
        accuracy: { type: 'string' },
        icc: { type: 'string' },
        unpaired: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one SPEC file');
    const baselineFlag = fraction(values.baseline, '--baseline', 0.001, 0.999);
    const detect = fraction(values.detect, '--detect', 0.001, 0.999);
    const accuracyFlag = fraction(values.accuracy, '--accuracy', 0.01, 1);
    const iccFlag = fraction(values.icc, '--icc', 0, 1);
    const spec = readSpec(positionals[0] as string);
    const session = openLab(context, values.workspace);
    try {
      const estimate = unwrap(await session.api.estimateStudy({ spec }));
      const mark = estimate.simulated ? ' (SIMULATED judge: no cost)' : '';
      // The engine accepted the spec, so it parses; the repeat's reps are among the uncued.
      const repeat = studySpecSchema.safeParse(spec).data?.arms.uncuedRepeat
        ? ' with the uncued repeat'
        : '';
      io.out(
        `${estimate.items} items × ${estimate.judges} judges × ${estimate.conditions} conditions × ` +
          `${estimate.reps} reps = ${estimate.totalReps} reps (${estimate.uncuedReps} uncued` +
          `${repeat}, at most ${estimate.cuedReps} cued)${mark}`,
      );
      const uncached = estimate.estimatedCostWithoutCacheUsd;
      const cost =
        estimate.estimatedCostUsd === null
          ? 'unknown'
          : `$${estimate.estimatedCostUsd.toFixed(2)}` +
            (uncached != null && uncached > estimate.estimatedCostUsd
              ? ` with prompt caching ($${uncached.toFixed(2)} without)`
              : '');
      io.out(
        `Cost: ${cost}; time: ${formatSeconds(estimate.estimatedSeconds)} (${estimate.basis})`,
      );
      io.out(`Disk: about ${formatBytes(estimate.estimatedDiskBytes)} (${estimate.diskBasis})`);
      for (const warning of estimate.warnings)
        io.out(`Warning: ${warning.message}${warning.fix ? ` ${warning.fix}` : ''}`);
      const persona = estimate.power ?? null;
      const baseline = baselineFlag ?? persona?.baseline;
      if (baseline === undefined) {
        io.out(
          'Power: give --baseline RATE (the harmful-flip rate you expect, e.g. 0.2): no judge ' +
            'of this spec is synthetic, so there is no persona to take it from.',
        );
        return exitCodes.ok;
      }
      const test: PowerTest = values.unpaired ? 'Fisher exact' : 'exact McNemar';
      const design = {
        items: estimate.items,
        reps: estimate.reps,
        baseline,
        uncuedAccuracy: accuracyFlag ?? persona?.uncuedAccuracy ?? PAPER_UNCUED_ACCURACY,
        icc: iccFlag ?? persona?.icc ?? DEFAULT_ICC,
        test,
      };
      const source =
        baselineFlag === undefined ? (persona?.baselineSource ?? '') : 'entered with --baseline';
      io.out(
        `Power (alpha 0.05, 80%) for the ${test} test on item-majority verdicts ` +
          `(${test === 'exact McNemar' ? 'two arms on the same items, as the mitigations table and cuelab compare run it' : 'two studies on different items, as cuelab compare runs it'}): ` +
          `baseline item-level harmful-flip rate ${percent(baseline)} (${source}); gate ` +
          `${percent(design.uncuedAccuracy)} of items = ${gatedItems(design)} gated items per arm; ` +
          `ICC ${design.icc.toFixed(2)} (assumed, between reps of one item); arms independent given the item.`,
      );
      const difference = minimumDetectableDifference(design);
      if (difference === null)
        io.out(
          'Minimum detectable difference: none; even the largest change is not detectable with these items and reps.',
        );
      else {
        const other = comparedRate(baseline, difference);
        const perRep = (rate: number) => percent(perRepRate(rate, design.icc, design.reps));
        io.out(
          `Minimum detectable difference: ${(difference * 100).toFixed(1)} percentage points of ` +
            `item-level harmful-flip rate (${percent(baseline)} vs ${percent(other)}; per rep ` +
            `${perRep(baseline)} vs ${perRep(other)} at ICC ${design.icc.toFixed(2)} with ${design.reps} reps).`,
        );
      }
      if (detect !== undefined) {
        if (detect > Math.max(baseline, 1 - baseline))
          throw new UsageError(`--detect ${detect} is larger than any change from ${baseline}`);
        io.out(
          `Items needed to detect ${(detect * 100).toFixed(1)} percentage points: ${itemsNeeded(design, detect)} per judge ` +
            `(with ${design.reps} reps; this spec has ${design.items}).`,
        );
      }
      return exitCodes.ok;
    } finally {
      await session.close();
    }
  },
};
