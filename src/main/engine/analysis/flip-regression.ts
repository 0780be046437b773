/**
 * A regression for factorial ablations: a logistic model of harmful flips on the study's factors,
 * so the effect of one cue axis is read with the others held fixed rather than by comparing
 * marginal rates that mix them. One observation is one opposing cued rep of a gated item (§3.1:
 * the uncued majority equals gold) with a verdict; it flipped when its verdict is not gold, as the
 * rep-level HF % counts it. One model per dimension, with every factor that has two or more
 * levels among those reps:
 *
 * - the cue axes (§3.2: framing, form, source (the cue's authority), decisiveness, strength) when
 *   every cued condition is an axes cell, else one `cue` factor whose levels are the cues;
 * - placement (App. K), mitigation (§3.4), direction (App. D), judge and dataset.
 *
 * Treatment coding: each factor's reference level is its level with the most reps (ties: first
 * in order), so every odds ratio is "this level against the reference, the other factors held
 * fixed". Intervals are Wald intervals on the log odds with item-clustered sandwich errors
 * (logistic.ts): the reps of one item are not independent.
 *
 * Where the model cannot be trusted it says so. A level whose reps all flipped or none did has no
 * finite odds ratio (separation): its reps leave the fit and its row says why. Under 15 items the
 * sandwich under-covers, and every row is flagged. An aliased level (one that only occurs together
 * with another, so the data cannot tell them apart) gets no estimate.
 */
import { baseConditionKey } from '../../../shared/condition-keys';
import { FEW_CLUSTERS } from './cluster-bootstrap';
import { compositeKey } from './group';
import { fitLogistic } from './logistic';
import { pairItems } from './pairs';
import type { Interval, JudgeRepRow } from './types';
import { Z_95 } from './wilson';

/** One rep in the model: its factor levels, whether it flipped, and its item. */
interface Observation {
  readonly levels: ReadonlyMap<string, string>;
  readonly flipped: 0 | 1;
  readonly item: string;
  readonly simulated: boolean;
}

/** One level of one factor in a dimension's model. */
export interface RegressionTerm {
  readonly dimension: string;
  readonly factor: string;
  readonly level: string;
  /** The factor's reference level (its odds ratio is 1 by definition). */
  readonly reference: string;
  readonly isReference: boolean;
  readonly reps: number;
  readonly flips: number;
  /** Items with a rep at this level. */
  readonly items: number;
  /** exp(β); null for the reference, a separated or aliased level, or a model that failed. */
  readonly oddsRatio: number | null;
  /** 95% Wald interval on exp(β) with item-clustered errors. */
  readonly oddsRatioCi: Interval | null;
  /** Two-sided Wald p-value with item-clustered errors. */
  readonly pValue: number | null;
  /** Why the row has no estimate or should be read with care; null when there is nothing to say. */
  readonly warning: string | null;
}

/** One dimension's model. */
export interface FlipRegression {
  readonly dimension: string;
  readonly terms: readonly RegressionTerm[];
  readonly reps: number;
  readonly items: number;
  /** Factors with one level among the reps: constant, so not in the model. */
  readonly dropped: readonly string[];
  /** The one level of each dropped factor, in the same order. */
  readonly droppedLevels: readonly string[];
  /** Model-wide problems (separation, few items, no convergence). */
  readonly problems: readonly string[];
  readonly simulated: boolean;
}

const AXES = ['framing', 'form', 'source', 'decisiveness', 'strength'] as const;
const AXIS_DEFAULTS: Record<(typeof AXES)[number], string> = {
  framing: 'belief',
  form: 'declarative',
  source: 'domain expert',
  decisiveness: 'definitely',
  strength: 'strong',
};

/** The cue, placement and mitigation a condition key names (`axes:…@system+guard`). */
export function conditionParts(condition: string): {
  cue: string;
  placement: string | null;
  mitigation: string | null;
} {
  const base = baseConditionKey(condition);
  const at = base.indexOf('@');
  if (at === -1) return { cue: base, placement: null, mitigation: null };
  const rest = base.slice(at + 1);
  const plus = rest.indexOf('+');
  return {
    cue: base.slice(0, at),
    placement: plus === -1 ? rest : rest.slice(0, plus),
    mitigation: plus === -1 ? null : rest.slice(plus + 1),
  };
}

/** The axis levels of an `axes:` cue key, defaults filled in; null for another kind of cue. */
function axisLevels(cue: string): Record<(typeof AXES)[number], string> | null {
  if (!cue.startsWith('axes:')) return null;
  const levels = { ...AXIS_DEFAULTS };
  for (const part of cue.slice('axes:'.length).split(',')) {
    const [axis, level] = part.split('=');
    if (axis && level && axis in levels) levels[axis as (typeof AXES)[number]] = level;
  }
  return levels;
}

/** A descriptive cell, or null when it is absent or empty (an imported file's blank column). */
function given(value: string | null | undefined): string | null {
  return value === null || value === undefined || value === '' ? null : value;
}

function observations(rows: readonly JudgeRepRow[], dimension: string): Observation[] {
  const pairs = pairItems(rows).filter(
    (pair) => pair.status === 'gated' && pair.dimension === dimension,
  );
  const allAxes = pairs.every((pair) => axisLevels(conditionParts(pair.condition).cue) !== null);
  const out: Observation[] = [];
  for (const pair of pairs) {
    const parts = conditionParts(pair.condition);
    for (const rep of pair.cuedReps) {
      if (rep.verdict === null) continue;
      const levels = new Map<string, string>();
      const axes = allAxes ? axisLevels(parts.cue) : null;
      if (axes) for (const axis of AXES) levels.set(axis, axes[axis]);
      else levels.set('cue', given(rep.cueLabel) ?? parts.cue);
      levels.set('placement', given(rep.placement) ?? parts.placement ?? 'unknown');
      levels.set('mitigation', given(rep.mitigation) ?? parts.mitigation ?? 'none');
      levels.set('direction', rep.cueDirection ?? 'unknown');
      levels.set('judge', rep.judge);
      levels.set('dataset', rep.dataset);
      out.push({
        levels,
        flipped: rep.verdict === pair.gold ? 0 : 1,
        item: compositeKey(pair.dataset, pair.itemId),
        simulated: rep.simulated,
      });
    }
  }
  return out;
}

const FACTOR_ORDER = [...AXES, 'cue', 'placement', 'mitigation', 'direction', 'judge', 'dataset'];

interface LevelCount {
  reps: number;
  flips: number;
  items: Set<string>;
}

function levelCounts(data: readonly Observation[], factor: string): Map<string, LevelCount> {
  const counts = new Map<string, LevelCount>();
  for (const observation of data) {
    const level = observation.levels.get(factor) as string;
    const count = counts.get(level) ?? { reps: 0, flips: 0, items: new Set<string>() };
    count.reps += 1;
    count.flips += observation.flipped;
    count.items.add(observation.item);
    counts.set(level, count);
  }
  return counts;
}

/** Standard normal upper tail, by the complementary error function (|error| < 1.2e-7). */
function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -x * x -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t *
                          (-1.13520398 +
                            t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const erfc = t * Math.exp(poly);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** Levels whose reps all flipped or none did, found until none is left among the kept reps. */
function separatedLevels(
  data: readonly Observation[],
  factors: readonly string[],
): { kept: Observation[]; separated: Map<string, Set<string>> } {
  let kept = [...data];
  const separated = new Map<string, Set<string>>(factors.map((factor) => [factor, new Set()]));
  for (let round = 0; round < 20; round += 1) {
    let changed = false;
    for (const factor of factors) {
      const counts = levelCounts(kept, factor);
      if (counts.size < 2) continue;
      for (const [level, count] of counts)
        if (count.flips === 0 || count.flips === count.reps) {
          (separated.get(factor) as Set<string>).add(level);
          changed = true;
        }
    }
    if (!changed) break;
    kept = kept.filter(
      (observation) =>
        !factors.some((factor) =>
          separated.get(factor)?.has(observation.levels.get(factor) as string),
        ),
    );
  }
  return { kept, separated };
}

function modelOf(data: readonly Observation[], dimension: string): FlipRegression {
  const allItems = new Set(data.map((observation) => observation.item));
  const present = FACTOR_ORDER.filter((factor) => data[0]?.levels.has(factor));
  const factors = present.filter((factor) => levelCounts(data, factor).size > 1);
  const dropped = present.filter((factor) => !factors.includes(factor));
  // Their one level each ("anthropic/claude-…" of judge), so the table still says which.
  const droppedLevels = dropped.map((factor) => [...levelCounts(data, factor).keys()].join(', '));
  const { kept, separated } = separatedLevels(data, factors);
  const problems: string[] = [];
  const base = {
    dimension,
    reps: data.length,
    items: allItems.size,
    dropped,
    droppedLevels,
    simulated: data.some((observation) => observation.simulated),
  };
  // Columns: intercept, then one per non-reference level of each factor.
  const references = new Map<string, string>();
  const columns: { factor: string; level: string }[] = [];
  for (const factor of factors) {
    const counts = [...levelCounts(kept, factor)].sort((a, b) => b[1].reps - a[1].reps);
    const reference = counts[0]?.[0];
    if (reference === undefined) continue;
    references.set(factor, reference);
    for (const [level] of counts.slice(1)) columns.push({ factor, level });
  }
  const keptItems = new Set(kept.map((observation) => observation.item)).size;
  const flips = kept.reduce((sum, observation) => sum + observation.flipped, 0);
  let fit: ReturnType<typeof fitLogistic> | null = null;
  if (kept.length === 0 || flips === 0 || flips === kept.length)
    problems.push(
      'no estimable model: every rep left in the fit flipped, or none did (separation)',
    );
  else {
    fit = fitLogistic({
      x: kept.map((observation) => [
        1,
        ...columns.map(({ factor, level }) => (observation.levels.get(factor) === level ? 1 : 0)),
      ]),
      y: kept.map((observation) => observation.flipped),
      cluster: kept.map((observation) => observation.item),
    });
    if (fit.separated) {
      problems.push(
        'separation: the fit ran off toward an infinite odds ratio (a combination of levels where ' +
          'every rep flipped or none did); no odds ratio is printed',
      );
      fit = null;
    } else if (!fit.converged) problems.push('the fit did not converge in 50 Newton steps');
  }
  if (keptItems < FEW_CLUSTERS)
    problems.push(
      `few items (n = ${keptItems} < ${FEW_CLUSTERS}): the item-clustered errors under-cover; ` +
        'read the intervals as rough',
    );
  if ([...separated.values()].some((levels) => levels.size > 0))
    problems.push(
      'levels whose reps all flipped or none did have no finite odds ratio (separation) and ' +
        'left the fit',
    );
  const fewItems =
    keptItems < FEW_CLUSTERS ? `few items (n = ${keptItems} < ${FEW_CLUSTERS})` : null;
  const terms: RegressionTerm[] = [];
  for (const factor of factors) {
    const reference = references.get(factor) ?? '';
    const counts = levelCounts(data, factor);
    const order = [...counts.keys()].sort((a, b) =>
      a === reference ? -1 : b === reference ? 1 : a.localeCompare(b),
    );
    for (const level of order) {
      const count = counts.get(level) as LevelCount;
      const row = {
        dimension,
        factor,
        level,
        reference,
        isReference: level === reference,
        reps: count.reps,
        flips: count.flips,
        items: count.items.size,
      };
      if (separated.get(factor)?.has(level)) {
        terms.push({
          ...row,
          isReference: false,
          oddsRatio: null,
          oddsRatioCi: null,
          pValue: null,
          warning: `separation: ${count.flips === 0 ? 'no rep' : 'every rep'} flipped, no finite OR`,
        });
        continue;
      }
      if (level === reference) {
        terms.push({ ...row, oddsRatio: 1, oddsRatioCi: null, pValue: null, warning: fewItems });
        continue;
      }
      const index = columns.findIndex((entry) => entry.factor === factor && entry.level === level);
      const at = fit && index !== -1 ? fit.kept.indexOf(index + 1) : -1;
      if (!fit || at === -1) {
        const why =
          index === -1
            ? 'its reps left the fit with a separated level'
            : fit
              ? 'aliased with another level: not estimable'
              : 'no estimable model';
        terms.push({ ...row, oddsRatio: null, oddsRatioCi: null, pValue: null, warning: why });
        continue;
      }
      const beta = fit.coefficients[at] as number;
      const se = fit.clusteredSe[at] as number;
      const usable = Number.isFinite(se) && se > 0;
      terms.push({
        ...row,
        oddsRatio: Math.exp(beta),
        oddsRatioCi: usable
          ? { low: Math.exp(beta - Z_95 * se), high: Math.exp(beta + Z_95 * se) }
          : null,
        pValue: usable ? 2 * normalUpperTail(Math.abs(beta / se)) : null,
        warning: usable ? fewItems : 'one item behind the contrast: no clustered error',
      });
    }
  }
  return { ...base, terms, problems };
}

/** The harmful-flip regression of every binary dimension with cued reps of gated items. */
export function flipRegressions(rows: readonly JudgeRepRow[]): FlipRegression[] {
  const dimensions = [
    ...new Set(
      pairItems(rows)
        .filter((pair) => pair.status === 'gated')
        .map((pair) => pair.dimension),
    ),
  ];
  return dimensions
    .map((dimension) => modelOf(observations(rows, dimension), dimension))
    .filter((model) => model.reps > 0);
}
