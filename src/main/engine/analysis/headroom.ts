/**
 * Error attribution: % of headroom (taxonomy ceiling) closed (§3.2 "Methodology: property
 * ablation", App. B, App. K). Per trajectory the metric is "(cued − uncued) / (taxonomy size −
 * uncued)" (App. B; protocol.ts `ceilingClosedPercent`), in percent; "We compute this per
 * trajectory, pool per dataset, and average across datasets" (§3.2) — read here as the mean over
 * a dataset's trajectories, then the unweighted mean of the dataset means (App. B: "pooled
 * unweighted"). CIs: seeded stratified percentile bootstrap over trajectories (bootstrap.ts).
 *
 * Our rules where the paper has none: an arm's count is the mean of its valid reps' counts (the
 * App. G "uncued mean" reference; with one rep per arm it is that rep); a trajectory with no valid
 * rep in either arm is 'incomplete', and one whose uncued run left no headroom is 'no-headroom'
 * (the metric is undefined); both are excluded and counted. A trajectory is item × judge ×
 * condition; only rows with a `taxonomySize` take part.
 */
import { ceilingClosedPercent } from '../paper';
import type { BootstrapOptions } from './bootstrap';
import { arithmeticMean, resolveBootstrap, stratifiedBootstrap } from './bootstrap';
import { anySimulated, compositeKey, groupBy } from './group';
import type { ControlOptions, Interval, JudgeRepRow } from './types';
import { UNCUED_CONDITION } from './types';

/** One trajectory's effect. */
export interface TrajectoryHeadroom {
  readonly condition: string;
  readonly judge: string;
  readonly dataset: string;
  readonly itemId: string;
  readonly status: 'ok' | 'incomplete' | 'no-headroom';
  /** Mean categories present over valid reps; null when the arm has none. */
  readonly uncuedPresent: number | null;
  readonly cuedPresent: number | null;
  readonly taxonomySize: number;
  /** % of ceiling closed; null unless status is 'ok'. */
  readonly percentOfCeiling: number | null;
  /** Reps behind the trajectory (both arms). */
  readonly n: number;
  readonly simulated: boolean;
}

/** One headroom summary: a dataset, or the unweighted average across datasets. */
export interface HeadroomRow {
  readonly scope: 'dataset' | 'across-datasets';
  readonly condition: string;
  readonly judge: string;
  readonly dataset: string | null;
  /** Trajectories with a defined metric. */
  readonly n: number;
  /** Mean % of ceiling closed; null when n is 0. */
  readonly percentOfCeiling: number | null;
  /** Percentile bootstrap interval in percent; null when n is 0. */
  readonly ci: Interval | null;
  readonly excluded: { readonly incomplete: number; readonly noHeadroom: number };
  readonly resamples: number;
  readonly seed: number;
  readonly confidence: number;
  readonly simulated: boolean;
}

function validCounts(reps: readonly JudgeRepRow[]): number[] {
  return reps
    .map((rep) => rep.categoriesPresent)
    .filter((count): count is number => typeof count === 'number' && Number.isFinite(count));
}

function meanOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : arithmeticMean(values);
}

/** The per-trajectory metric for every cued arm that has error-attribution rows. */
export function trajectoryHeadroom(
  rows: readonly JudgeRepRow[],
  options: ControlOptions = {},
): TrajectoryHeadroom[] {
  const control = options.controlCondition ?? UNCUED_CONDITION;
  const attribution = rows.filter((row) => row.taxonomySize != null);
  const item = (row: JudgeRepRow) => compositeKey(row.judge, row.dataset, row.itemId);
  const controlReps = groupBy(
    attribution.filter((row) => row.condition === control),
    item,
  );
  const cuedArms = groupBy(
    attribution.filter((row) => row.condition !== control),
    (row) => compositeKey(row.condition, item(row)),
  );
  return [...cuedArms.values()].map((cuedReps) => {
    const first = cuedReps[0] as JudgeRepRow;
    const uncuedReps = controlReps.get(item(first)) ?? [];
    const sizes = new Set([...uncuedReps, ...cuedReps].map((rep) => rep.taxonomySize));
    if (sizes.size !== 1) {
      throw new Error(
        `Trajectory ${first.dataset}/${first.itemId} has conflicting taxonomy sizes.`,
      );
    }
    const taxonomySize = first.taxonomySize as number;
    const uncuedPresent = meanOrNull(validCounts(uncuedReps));
    const cuedPresent = meanOrNull(validCounts(cuedReps));
    const percent =
      uncuedPresent === null || cuedPresent === null
        ? null
        : ceilingClosedPercent(cuedPresent, uncuedPresent, taxonomySize);
    const status =
      uncuedPresent === null || cuedPresent === null
        ? 'incomplete'
        : percent === null
          ? 'no-headroom'
          : 'ok';
    return {
      condition: first.condition,
      judge: first.judge,
      dataset: first.dataset,
      itemId: first.itemId,
      status,
      uncuedPresent,
      cuedPresent,
      taxonomySize,
      percentOfCeiling: percent,
      n: uncuedReps.length + cuedReps.length,
      simulated: anySimulated(uncuedReps) || anySimulated(cuedReps),
    };
  });
}

/**
 * % of ceiling closed per condition × judge: one row per dataset, then the unweighted average
 * across datasets, each with a seeded bootstrap CI over trajectories (≥ 1,000 resamples).
 */
export function headroomClosed(
  rows: readonly JudgeRepRow[],
  options: ControlOptions & BootstrapOptions = {},
): HeadroomRow[] {
  const settings = resolveBootstrap(options);
  const out: HeadroomRow[] = [];
  const trajectories = trajectoryHeadroom(rows, options);
  const arms = groupBy(trajectories, (entry) => compositeKey(entry.condition, entry.judge));
  for (const arm of arms.values()) {
    const { condition, judge } = arm[0] as TrajectoryHeadroom;
    const datasets = [...groupBy(arm, (entry) => entry.dataset).values()].map((entries) => ({
      dataset: (entries[0] as TrajectoryHeadroom).dataset,
      entries,
      values: entries.flatMap((entry) =>
        entry.percentOfCeiling === null ? [] : [entry.percentOfCeiling],
      ),
    }));
    const usable = datasets.filter((dataset) => dataset.values.length > 0);
    const boot =
      usable.length === 0
        ? null
        : stratifiedBootstrap(
            usable.map((dataset) => dataset.values),
            settings,
            ['headroom', condition, judge],
          );
    const summary = (
      scope: HeadroomRow['scope'],
      dataset: string | null,
      entries: readonly TrajectoryHeadroom[],
      percent: number | null,
      ci: Interval | null,
    ): HeadroomRow => ({
      scope,
      condition,
      judge,
      dataset,
      n: entries.filter((entry) => entry.status === 'ok').length,
      percentOfCeiling: percent,
      ci,
      excluded: {
        incomplete: entries.filter((entry) => entry.status === 'incomplete').length,
        noHeadroom: entries.filter((entry) => entry.status === 'no-headroom').length,
      },
      ...settings,
      simulated: anySimulated(entries),
    });
    for (const dataset of datasets) {
      const index = usable.indexOf(dataset);
      out.push(
        summary(
          'dataset',
          dataset.dataset,
          dataset.entries,
          index < 0 ? null : arithmeticMean(dataset.values),
          index < 0 || !boot ? null : (boot.perStratum[index] ?? null),
        ),
      );
    }
    const datasetMeans = usable.map((dataset) => arithmeticMean(dataset.values));
    out.push(
      summary('across-datasets', null, arm, meanOrNull(datasetMeans), boot ? boot.overall : null),
    );
  }
  return out;
}
