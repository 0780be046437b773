/**
 * Direction asymmetry: severity vs leniency (§3.2 "Methodology: direction asymmetry", App. D).
 *
 * - Severity: "of items whose ground truth is PASS and whose uncued verdict was correct, the
 *   fraction the cue flips to FAIL".
 * - Leniency: "of items whose ground truth is FAIL and uncued verdict was correct, the fraction
 *   the cue flipped to PASS".
 * Both are gold-gated harmful flip rates (App. D: "among items the uncued judge evaluates
 * correctly, the proportion that the cue causes it to evaluate incorrectly"), with the cue
 * opposing the uncued verdict — so on a gated gold-PASS item the cue is a severity cue and on a
 * gated gold-FAIL item a leniency cue. Reps whose recorded direction does not oppose the uncued
 * majority never enter (pairs.ts). App. D reports by dataset (pooled over judges), by judge over
 * all datasets, and by judge with SWE-Bench-Verified excluded (`excludeDatasets`).
 */
import { anySimulated, compositeKey, groupBy } from './group';
import type { PairedItem } from './pairs';
import { pairItems } from './pairs';
import type { ControlOptions, Interval, JudgeRepRow } from './types';
import { proportion, wilsonInterval } from './wilson';

/** One direction's gold-gated harmful flips. */
export interface DirectionRate {
  /** Gated items of this direction's gold label. */
  readonly gate: number;
  readonly harmful: number;
  readonly harmfulFlipRate: number | null;
  readonly harmfulFlipCi: Interval | null;
}

/** App. D pools: a cell, a dataset over judges (Fig. 13 top), a judge (middle), everything. */
export type DirectionScope = 'judge-dataset' | 'dataset' | 'judge' | 'all';

/** One row of the severity-vs-leniency table. */
export interface DirectionRow {
  readonly scope: DirectionScope;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  /** Gold PASS, uncued PASS: the cue asserts failure. */
  readonly severity: DirectionRate;
  /** Gold FAIL, uncued FAIL: the cue asserts success. */
  readonly leniency: DirectionRate;
  /** Gated items behind the row (severity.gate + leniency.gate). */
  readonly n: number;
  readonly simulated: boolean;
}

/** Options: the control arm, and datasets to leave out (App. D: "Excluding ... SWE-Bench-Verified"). */
export interface DirectionOptions extends ControlOptions {
  readonly excludeDatasets?: readonly string[];
}

function rate(pairs: readonly PairedItem[], gold: 'pass' | 'fail'): DirectionRate {
  const gated = pairs.filter((pair) => pair.status === 'gated' && pair.gold === gold);
  const harmful = gated.filter((pair) => pair.harmful).length;
  return {
    gate: gated.length,
    harmful,
    harmfulFlipRate: proportion(harmful, gated.length),
    harmfulFlipCi: wilsonInterval(harmful, gated.length),
  };
}

function row(
  scope: DirectionScope,
  where: Pick<DirectionRow, 'condition' | 'dimension' | 'judge' | 'dataset'>,
  pairs: readonly PairedItem[],
): DirectionRow {
  const severity = rate(pairs, 'pass');
  const leniency = rate(pairs, 'fail');
  return {
    scope,
    ...where,
    severity,
    leniency,
    n: severity.gate + leniency.gate,
    simulated: anySimulated(pairs),
  };
}

/** Severity vs leniency harmful flip rates per condition × dimension at every App. D scope. */
export function directionAsymmetry(
  rows: readonly JudgeRepRow[],
  options: DirectionOptions = {},
): DirectionRow[] {
  const excluded = new Set(options.excludeDatasets ?? []);
  const pairs = pairItems(rows, options).filter((pair) => !excluded.has(pair.dataset));
  const out: DirectionRow[] = [];
  for (const arm of groupBy(pairs, (pair) =>
    compositeKey(pair.condition, pair.dimension),
  ).values()) {
    const { condition, dimension } = arm[0] as PairedItem;
    const at = (judge: string | null, dataset: string | null) => ({
      condition,
      dimension,
      judge,
      dataset,
    });
    for (const cell of groupBy(arm, (pair) => compositeKey(pair.judge, pair.dataset)).values()) {
      const { judge, dataset } = cell[0] as PairedItem;
      out.push(row('judge-dataset', at(judge, dataset), cell));
    }
    for (const pool of groupBy(arm, (pair) => pair.dataset).values()) {
      out.push(row('dataset', at(null, (pool[0] as PairedItem).dataset), pool));
    }
    for (const pool of groupBy(arm, (pair) => pair.judge).values()) {
      out.push(row('judge', at((pool[0] as PairedItem).judge, null), pool));
    }
    out.push(row('all', at(null, null), arm));
  }
  return out;
}
