/**
 * `cuelab validate`: the whole instrument (the real runner, SQLite store, synthetic judge and the
 * analysis every table uses) run on planted truth (validate-scenarios.ts), offline and without
 * Docker. Each replicate is one dataset of the study (its own items, so its own draws); each
 * metric is a share over replicates with its Monte-Carlo standard error √(p(1 − p)/R).
 *
 * Per scenario it reports: the recovery error of every planted item-level rate (mean recovered −
 * truth); the coverage of the Wilson interval (item-level rate, §3.1) and of the item-clustered
 * interval (rep-level rate, cluster-bootstrap.ts); the paired Newcombe coverage of the planted
 * mitigation effect; and for each reported test the share of replicates that reject at α = 0.05:
 * exact McNemar and Fisher on the mitigations, Holm and Benjamini–Hochberg over the family of a
 * replicate's mitigation comparisons, and the beyond-placebo interval excluding 0. In the null
 * scenario every one of those is a false-positive rate; in the planted one the rejections are
 * power.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benjaminiHochbergAdjust,
  fisherExact,
  flipRatesFromPairs,
  flipsBeyondPlacebo,
  holmAdjust,
  mitigationEffects,
  pairItems,
  placeboArms,
  repLevelRates,
  repRateKey,
  UNCUED_CONDITION,
  type Interval,
  type JudgeRepRow,
} from '../analysis';

import { studyRows } from '../reports';
import { createSyntheticProvider, repRate, syntheticCueOf } from '../simulation';

import { openStore } from '../store';
import { saveSuite } from '../store/faces/suites';
import { createStudy } from './create-study';
import type { JudgeContext } from './execute';
import { StudyRunner } from './runner';
import { workspaceRunnerDeps } from './workspace-deps';
import { modelRows } from './validate-model';
import { scenarioSpec, scenarios, validationSuite, type Scenario } from './validate-scenarios';

/** A share over replicates and its Monte-Carlo standard error. */
export interface Share {
  readonly value: number;
  readonly mcError: number;
  readonly replicates: number;
}

/** One scenario's results. */
export interface ScenarioReport {
  readonly scenario: string;
  /** 'runner': the real runner, store and synthetic judge; 'model': its draws without the loop. */
  readonly engine: 'runner' | 'model';
  readonly replicates: number;
  readonly itemsPerReplicate: number;
  /** Per planted arm: truth, mean recovered item-level rate, error and coverage. */
  readonly arms: readonly {
    readonly condition: string;
    readonly truth: number;
    readonly perRepTruth: number;
    readonly meanRecovered: number;
    readonly recoveryError: number;
    readonly recoveryMcError: number;
    readonly wilsonCoverage: Share;
    readonly clusteredCoverage: Share;
  }[];
  /** Paired Newcombe coverage of each mitigation's true effect (before − after). */
  readonly mitigationCoverage: Share;
  /** Share of replicates rejecting at α = 0.05, per test (false positives under the null). */
  readonly rejections: Readonly<Record<ValidatedTest, Share>>;
}

/** The tests CueLab reports, as validate names them. */
export type ValidatedTest =
  'McNemar' | 'Fisher' | 'Holm (any in family)' | 'BH (any in family)' | 'beyond placebo';

const ALPHA = 0.05;

/**
 * Monte-Carlo errors a check may miss by: about 60 checks run at once, so 3.5 errors each
 * (Bonferroni: 0.05 / 60 two-sided is z ≈ 3.3) keeps a correct instrument passing all of them
 * in about 95% of runs. The price is resolution: at 200 replicates a share is known to about
 * ±0.05, so telling 0.90 from 0.93 takes --seeds 1000 or more.
 */
const TOLERANCE = 3.5;

function share(hits: number, replicates: number): Share {
  const value = replicates === 0 ? 0 : hits / replicates;
  return {
    value,
    mcError: replicates === 0 ? 0 : Math.sqrt((value * (1 - value)) / replicates),
    replicates,
  };
}

const covers = (interval: Interval | null | undefined, truth: number) =>
  interval != null && interval.low <= truth && truth <= interval.high;

/** Runs one scenario's study on `replicates` × `items` items and returns its rows. */
async function runScenario(scenario: Scenario, replicates: number, items: number, seed: number) {
  const dir = mkdtempSync(join(tmpdir(), 'cuelab-validate-'));
  const store = openStore(join(dir, 'validate.sqlite'));
  try {
    const suite = validationSuite(replicates, items);
    saveSuite(store, suite, 'imported');
    const studyId = createStudy(store, scenarioSpec(scenario, seed), suite.items);
    const judgeFor = (context: JudgeContext) => {
      const provider = createSyntheticProvider({
        item: context.item,
        persona: scenario.persona,
        cue: syntheticCueOf(context.condition, context.readout),
        seed: context.condition.seed,
        repKey: context.repKey,
        itemKey: `${context.item.id}/${context.judge.id}`,
        readout: context.readout,
        mitigations: context.condition.mitigations,
      });
      return {
        provider,
        providerKind: 'synthetic' as const,
        simulated: true,
        describeSimulation: () => provider.describe(),
      };
    };
    const deps = { ...workspaceRunnerDeps(store, { env: {} }), judgeFor };
    const runner = new StudyRunner(deps, { concurrency: 4, studyIds: [studyId], pollMs: 5 });
    runner.start();
    await runner.whenIdle();
    await runner.stop();
    return studyRows(store, studyId);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Scores one scenario's rows (replicate k = dataset r<k>) against its planted truth. */
export function scoreScenario(
  scenario: Scenario,
  rows: readonly JudgeRepRow[],
  replicates: number,
  items: number,
  engine: 'runner' | 'model',
): ScenarioReport {
  const pairs = pairItems(rows);
  const cells = flipRatesFromPairs(pairs).filter((row) => row.scope === 'judge-dataset');
  const repRates = repLevelRates(pairs);
  const rho = scenario.persona.repCorrelation;
  const gated = (own: readonly { gate: number }[]) => own.reduce((sum, row) => sum + row.gate, 0);
  const arms = scenario.arms.map((arm) => {
    const own = cells.filter((row) => row.condition === arm.condition);
    const perRepTruth = repRate(arm.harmful, rho);
    const rates = own.map((row) => row.harmfulFlipRate ?? 0);
    const mean = rates.reduce((sum, rate) => sum + rate, 0) / Math.max(1, rates.length);
    const spread = rates.reduce((sum, rate) => sum + (rate - mean) ** 2, 0);
    return {
      condition: arm.condition,
      truth: arm.harmful,
      perRepTruth,
      meanRecovered: mean,
      recoveryError: mean - arm.harmful,
      // The sampling error of the mean over every replicate's gated items (binomial at the
      // truth; the empirical spread when there are replicates enough to estimate it).
      recoveryMcError: Math.max(
        Math.sqrt((arm.harmful * (1 - arm.harmful)) / Math.max(1, gated(own))),
        rates.length > 1 ? Math.sqrt(spread / (rates.length - 1) / rates.length) : 0,
      ),
      wilsonCoverage: share(
        own.filter((row) => covers(row.harmfulFlipCi, arm.harmful)).length,
        own.length,
      ),
      clusteredCoverage: share(
        own.filter((row) => covers(repRates.get(repRateKey(row))?.harmful?.interval, perRepTruth))
          .length,
        own.length,
      ),
    };
  });
  const truthOf = new Map(scenario.arms.map((arm) => [arm.condition, arm.harmful]));
  const effects = mitigationEffects(rows).filter((row) => row.scope === 'judge-dataset');
  let effectCovered = 0;
  let effectCount = 0;
  const byReplicate = new Map<string, (typeof effects)[number][]>();
  for (const effect of effects) {
    const difference = effect.harmfulDifference;
    const before = truthOf.get(effect.before.condition);
    const after = truthOf.get(effect.after.condition);
    if (difference && before !== undefined && after !== undefined) {
      effectCount += 1;
      if (covers(difference.interval, before - after)) effectCovered += 1;
    }
    const list = byReplicate.get(effect.dataset ?? '') ?? [];
    list.push(effect);
    byReplicate.set(effect.dataset ?? '', list);
  }
  // The first mitigation of the strong cue is "the" comparison for the single-test rates.
  const first = [...byReplicate.values()].map((list) => list[0]);
  const fisher = (effect: (typeof effects)[number]) =>
    fisherExact(
      { successes: effect.before.harmful, trials: effect.before.gate },
      { successes: effect.after.harmful, trials: effect.after.gate },
    );
  const family = [...byReplicate.values()].map((list) =>
    list.map((effect) => effect.harmfulTest.pValue),
  );
  const anyBelow = (values: readonly (number | null)[]) =>
    values.some((value) => value !== null && value < ALPHA);
  const beyond = flipsBeyondPlacebo(pairs, placeboArms(rows, UNCUED_CONDITION));
  const strongBeyond = cells
    .filter((row) => row.condition === 'preset:strong@system')
    .flatMap((row) => beyond.get(repRateKey(row)) ?? []);
  return {
    scenario: scenario.name,
    engine,
    replicates,
    itemsPerReplicate: items,
    arms,
    mitigationCoverage: share(effectCovered, effectCount),
    rejections: {
      McNemar: share(
        first.filter((effect) => effect && effect.harmfulTest.pValue < ALPHA).length,
        first.length,
      ),
      Fisher: share(
        first.filter((effect) => effect && fisher(effect) < ALPHA).length,
        first.length,
      ),
      'Holm (any in family)': share(
        family.filter((values) => anyBelow(holmAdjust(values))).length,
        family.length,
      ),
      'BH (any in family)': share(
        family.filter((values) => anyBelow(benjaminiHochbergAdjust(values))).length,
        family.length,
      ),
      'beyond placebo': share(
        strongBeyond.filter(
          (entry) => entry.interval && (entry.interval.low > 0 || entry.interval.high < 0),
        ).length,
        strongBeyond.length,
      ),
    },
  };
}

/** The whole validation: every scenario. */
export interface ValidationReport {
  readonly simulated: true;
  readonly seed: number;
  readonly alpha: number;
  readonly scenarios: readonly ScenarioReport[];
  /** The done-when checks, each with whether it passed. */
  readonly checks: readonly {
    readonly name: string;
    readonly pass: boolean;
    readonly detail: string;
  }[];
  readonly pass: boolean;
}

/** What a validation runs: model replicates, runner replicates, items per replicate, seed. */
export interface ValidationOptions {
  readonly replicates: number;
  readonly runnerReplicates: number;
  readonly items: number;
  readonly seed?: number;
}

/**
 * Runs every scenario: `replicates` replicates through the model engine (coverage and false
 * positives need hundreds) and `runnerReplicates` through the real runner (the pipeline's
 * fidelity: its recovered rates must match the truth too).
 */
export async function runValidation(options: ValidationOptions): Promise<ValidationReport> {
  const seed = options.seed ?? 17;
  const reports: ScenarioReport[] = [];
  for (const scenario of scenarios()) {
    const rows = modelRows(scenario, options.replicates, options.items, seed);
    reports.push(scoreScenario(scenario, rows, options.replicates, options.items, 'model'));
    if (options.runnerReplicates > 0) {
      const run = await runScenario(scenario, options.runnerReplicates, options.items, seed);
      reports.push(scoreScenario(scenario, run, options.runnerReplicates, options.items, 'runner'));
    }
  }
  const checks = validationChecks(reports);
  return {
    simulated: true,
    seed,
    alpha: ALPHA,
    scenarios: reports,
    checks,
    pass: checks.every((check) => check.pass),
  };
}

/**
 * The done-when checks, each widened by TOLERANCE Monte-Carlo errors so a correct instrument
 * passes at any replicate count: coverage 0.93–0.97 (clustered at ≥ 50 items; Wilson too), every
 * null false-positive rate ≤ 0.07, and every recovered rate within its interval's reach (mean
 * recovery error within TOLERANCE Monte-Carlo errors of 0).
 */
export function validationChecks(
  reports: readonly ScenarioReport[],
): { name: string; pass: boolean; detail: string }[] {
  const out: { name: string; pass: boolean; detail: string }[] = [];
  const fmt = (value: Share) => `${value.value.toFixed(3)} ± ${value.mcError.toFixed(3)}`;
  // Two Monte-Carlo errors of a share at its nominal value (0.95 coverage, 0.05 rejections):
  // an empirical 1.000 or 0.000 has no spread of its own to judge it by.
  const slack = (value: Share) =>
    TOLERANCE * Math.max(value.mcError, Math.sqrt((0.95 * 0.05) / Math.max(1, value.replicates)));
  for (const report of reports) {
    const tag = `${report.engine} ${report.scenario}`;
    for (const arm of report.arms) {
      if (report.engine === 'runner') {
        out.push({
          name: `${tag} ${arm.condition}: recovered rate matches the planted one`,
          pass: Math.abs(arm.recoveryError) <= TOLERANCE * arm.recoveryMcError,
          detail: `truth ${arm.truth.toFixed(3)}, recovered ${arm.meanRecovered.toFixed(3)} (±${arm.recoveryMcError.toFixed(3)})`,
        });
        continue;
      }
      if (report.itemsPerReplicate >= 50) {
        // With fewer than 5 expected flipped items a discrete interval cannot sit at 95%: it
        // must over-cover, so there only the floor (0.93) is checked.
        const rare = arm.truth * report.itemsPerReplicate < 5;
        const clustered = arm.clusteredCoverage;
        out.push({
          name: `${tag} ${arm.condition}: clustered coverage ${rare ? 'at least 0.93 (rare event)' : 'in 0.93–0.97'}`,
          pass:
            clustered.value + slack(clustered) >= 0.93 &&
            (rare || clustered.value - slack(clustered) <= 0.97),
          detail: fmt(clustered),
        });
      }
      out.push({
        name: `${tag} ${arm.condition}: Wilson coverage at least 0.93`,
        pass: arm.wilsonCoverage.value + slack(arm.wilsonCoverage) >= 0.93,
        detail: fmt(arm.wilsonCoverage),
      });
      out.push({
        name: `${tag} ${arm.condition}: recovered rate matches the planted one`,
        pass: Math.abs(arm.recoveryError) <= TOLERANCE * arm.recoveryMcError,
        detail: `truth ${arm.truth.toFixed(3)}, recovered ${arm.meanRecovered.toFixed(3)} (±${arm.recoveryMcError.toFixed(3)})`,
      });
    }
    if (report.engine === 'model')
      out.push({
        name: `${tag}: Newcombe paired coverage of the planted mitigation effect at least 0.93`,
        pass: report.mitigationCoverage.value + slack(report.mitigationCoverage) >= 0.93,
        detail: fmt(report.mitigationCoverage),
      });
    if (report.scenario === 'null' && report.engine === 'model')
      for (const [test, rate] of Object.entries(report.rejections))
        out.push({
          name: `${tag}: ${test} false-positive rate at most 0.07`,
          pass: rate.value - slack(rate) <= 0.07,
          detail: fmt(rate),
        });
  }
  return out;
}
