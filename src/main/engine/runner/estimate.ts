/**
 * The builder's summary before launch: conditions × items × judges × reps, a rough cost and
 * duration, and what stands in the way (a missing key, Docker down, no base image).
 */
import type { StudySpec } from '../../../shared/study-spec';
import type { SuiteItem } from '../../../shared/suite-format';
import type { z } from 'zod';
import type { studyEstimateSchema } from '../../../shared/lab-api/studies';
import { specNeedsDocker } from '../environments';
import { readsTrajectoryOnly } from './execute';
import { costOf, DEFAULT_API_KEY_ENV } from '../providers';
import { type Store } from '../store';
import {
  imageBuildMedians,
  imageBuilt,
  measuredRepTime,
  modelRepHistory,
} from '../store/faces/machine';
import { expandConditions, isControl } from './conditions';
import { estimateDisk } from './estimate-disk';
import { selectItems } from './create-study';
import { ERROR_ATTRIBUTION_DIRECTION_NOTE, effectiveDirection } from './scheduling';
import { mitigationModelWarnings } from '../simulation';
import { isSimulatedProvider } from '../../../shared/catalogue/providers';

type StudyEstimate = z.output<typeof studyEstimateSchema>;

/** Tokens of a typical real-model rep when the workspace has no history (App. R: 10–30 tool calls). */
const assumedRep = { turns: 20, inputTokensPerTurn: 12_000, outputTokensPerTurn: 400, seconds: 90 };

/** Seconds per synthetic rep until this machine has measured some. */
const assumedSyntheticSeconds = 1.5;

/** Seconds to build one item image until this machine has measured builds of its substrate. */
const assumedBuildSeconds = 60;

/** Builds of a substrate measured before their median replaces the default. */
const measuredAfterBuilds = 3;

/** Finished reps of a judge's model before its measured median replaces the default. */
const measuredAfterReps = 5;

/**
 * A rep's input as the prompt cache splits it (providers/anthropic.ts puts a breakpoint after
 * the last message): every turn after the first re-reads the prompt the turn before sent, so
 * about (turns − 1) / turns of the input is read from the cache and the rest written to it.
 * A price row without cache prices charges both as plain input, so the split changes nothing.
 */
function cachedUsage(input: number, output: number, turns: number) {
  const read = Math.round((input * (turns - 1)) / turns);
  return {
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: read,
    cacheWriteTokens: input - read,
  };
}

/** What the environment can do, as the estimate needs it. */
export interface EstimateContext {
  env: Readonly<Record<string, string | undefined>>;
  dockerAvailable: boolean;
  dockerFix?: string;
  baseImagePresent: boolean;
}

/** Estimates a validated spec over its suite's items. */
export function estimateStudy(
  store: Store,
  spec: StudySpec,
  suiteItems: readonly SuiteItem[],
  context: EstimateContext,
): StudyEstimate {
  const items = selectItems(spec, suiteItems);
  const conditions = expandConditions(spec);
  // Mitigated controls (§3.4) are uncued reps: one per item × judge × rep, no direction.
  const controls = conditions.filter(isControl).length;
  const cuedConditions = conditions.length - controls;
  const directions = effectiveDirection(spec) === 'both' ? 2 : 1;
  const perArm = items.length * spec.judges.length * spec.reps;
  const uncuedReps = perArm * controls;
  const cuedReps = perArm * cuedConditions * directions;
  const totalReps = uncuedReps + cuedReps;
  const warnings: StudyEstimate['warnings'] = [];
  if (effectiveDirection(spec) !== spec.direction) {
    warnings.push({ code: 'direction_chosen', message: ERROR_ATTRIBUTION_DIRECTION_NOTE });
  }
  let cost: number | null = 0;
  let uncachedCost: number | null = 0;
  let seconds = 0;
  const bases: string[] = [];
  const timeBases: string[] = [];
  let defaultTimes = 0;
  for (const judge of spec.judges) {
    const repsForJudge = totalReps / spec.judges.length;
    const measured = measuredRepTime(store, judge.provider, judge.model);
    const measuredSeconds =
      measured.reps >= measuredAfterReps && measured.medianMs !== null
        ? measured.medianMs / 1000
        : null;
    if (measuredSeconds === null) defaultTimes += 1;
    timeBases.push(
      measuredSeconds === null
        ? `${judge.id}: default ${isSimulatedProvider(judge.provider) ? assumedSyntheticSeconds : assumedRep.seconds} s per rep (fewer than ${measuredAfterReps} reps measured here)`
        : `${judge.id}: median ${measuredSeconds.toFixed(1)} s per rep over ${measured.reps} reps measured here`,
    );
    if (isSimulatedProvider(judge.provider)) {
      seconds += repsForJudge * (measuredSeconds ?? assumedSyntheticSeconds);
      continue;
    }
    const keyName = judge.apiKeyEnv ?? DEFAULT_API_KEY_ENV[judge.provider];
    if (keyName && !context.env[keyName]) {
      warnings.push({
        code: 'missing_key',
        message: `No API key for judge ${judge.id}: ${keyName} is not set.`,
        fix: `Add the key in Settings, or set ${keyName} before starting CueLab.`,
      });
    }
    const history = modelRepHistory(store, judge.model);
    const known = history.reps >= 5;
    const input = known
      ? (history.inputTokens ?? 0)
      : assumedRep.turns * assumedRep.inputTokensPerTurn;
    const output = known
      ? (history.outputTokens ?? 0)
      : assumedRep.turns * assumedRep.outputTokensPerTurn;
    bases.push(
      known
        ? `${judge.id}: mean of ${history.reps} earlier reps`
        : `${judge.id}: assumed ${assumedRep.turns} turns per rep`,
    );
    const turns = known ? Math.max(1, history.turns ?? assumedRep.turns) : assumedRep.turns;
    const perRep = costOf(cachedUsage(input, output, turns), judge.provider, judge.model);
    const perRepUncached = costOf(
      { inputTokens: input, outputTokens: output },
      judge.provider,
      judge.model,
    );
    cost = perRep === null || cost === null ? null : cost + perRep * repsForJudge;
    uncachedCost =
      perRepUncached === null || uncachedCost === null
        ? null
        : uncachedCost + perRepUncached * repsForJudge;
    seconds += repsForJudge * (measuredSeconds ?? assumedRep.seconds);
  }
  // A synthetic judge reads a probe-less item's trajectory only: no container for its reps.
  const dockerItems = items.filter(
    (item) =>
      specNeedsDocker(item.environment) &&
      spec.judges.some((judge) => !readsTrajectoryOnly(judge, item)),
  );
  const needsDocker = dockerItems.length > 0;
  if (needsDocker && !context.dockerAvailable) {
    warnings.push({
      code: 'docker_down',
      message:
        `These items give the judge a shell, which runs in Docker, and Docker is not running: ` +
        `${dockerItems.length} of ${items.length} items need it. Launched now, the study pauses ` +
        'at their first rep ("Docker is not running") and resumes when Docker answers.',
      ...(context.dockerFix ? { fix: context.dockerFix } : {}),
    });
  } else if (needsDocker && !context.baseImagePresent) {
    warnings.push({
      code: 'bootstrap_needed',
      message: 'The Docker base image for judge environments has not been built on this machine.',
      fix: 'Build it in Settings (about a minute), or run: cuelab env bootstrap',
    });
  }
  if (spec.judges.some((judge) => isSimulatedProvider(judge.provider))) {
    warnings.push(...mitigationModelWarnings(spec.arms.mitigations));
  }
  if (cost !== null && spec.costCapUsd !== undefined && cost > spec.costCapUsd) {
    warnings.push({
      code: 'over_cap',
      message: `The estimate ($${cost.toFixed(2)}) exceeds the cost cap; the study will pause there.`,
    });
  }
  const parallel = Math.max(1, Math.min(spec.concurrency.total, spec.concurrency.containers));
  const builds = buildTime(store, dockerItems, parallel);
  if (builds.basis) timeBases.push(builds.basis);
  const disk = estimateDisk(items, totalReps, controls + cuedConditions * directions);
  return {
    items: items.length,
    judges: spec.judges.length,
    conditions: conditions.length,
    reps: spec.reps,
    uncuedReps,
    cuedReps,
    totalReps,
    estimatedCostUsd: cost,
    estimatedCostWithoutCacheUsd: uncachedCost,
    estimatedSeconds: Math.round(seconds / parallel + builds.seconds),
    secondsMeasured: timeBases.length > 0 && defaultTimes === 0 && builds.measured,
    secondsBasis: timeBases.join('; '),
    estimatedDiskBytes: disk.bytes,
    diskBasis: disk.basis,
    basis: bases.length ? bases.join('; ') : 'synthetic judges only (no cost)',
    warnings,
    simulated: spec.judges.some((judge) => isSimulatedProvider(judge.provider)),
  };
}

/**
 * The item images a study must still build on this machine (items whose environment has no
 * recorded build), at this machine's median per substrate; builds run `parallel` at a time.
 */
function buildTime(
  store: Store,
  items: readonly SuiteItem[],
  parallel: number,
): { seconds: number; measured: boolean; basis: string | null } {
  const toBuild = items.filter((item) => !imageBuilt(store, item));
  if (toBuild.length === 0) return { seconds: 0, measured: true, basis: null };
  const medians = imageBuildMedians(store);
  const bySubstrate = new Map<string, number>();
  for (const item of toBuild)
    bySubstrate.set(
      item.environment.substrate,
      (bySubstrate.get(item.environment.substrate) ?? 0) + 1,
    );
  let total = 0;
  let measured = true;
  const parts: string[] = [];
  for (const [substrate, count] of bySubstrate) {
    const known = medians.get(substrate);
    const isKnown = known !== undefined && known.builds >= measuredAfterBuilds;
    const each = isKnown ? known.medianSeconds : assumedBuildSeconds;
    if (!isKnown) measured = false;
    total += count * each;
    parts.push(
      isKnown
        ? `${count} ${substrate} at the median ${each.toFixed(0)} s of ${known.builds} built here`
        : `${count} ${substrate} at a default ${assumedBuildSeconds} s (fewer than ${measuredAfterBuilds} built here)`,
    );
  }
  const waves = Math.ceil(toBuild.length / parallel);
  const seconds = (total / toBuild.length) * waves;
  const basis = `item images to build first: ${parts.join(', ')}, ${parallel} at a time`;
  return { seconds, measured, basis };
}
