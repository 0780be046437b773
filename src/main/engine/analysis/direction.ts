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
import type { PairedItem } from './pairs';
import { pairItems } from './pairs';
import { scopedTally, type TallySpec } from './scoped-tally';
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

function rate(gate: number, harmful: number): DirectionRate {
  return {
    gate,
    harmful,
    harmfulFlipRate: proportion(harmful, gate),
    harmfulFlipCi: wilsonInterval(harmful, gate),
  };
}

const levels: TallySpec<DirectionScope>['levels'] = [
  { scope: 'judge-dataset', byJudge: true, byDataset: true },
  { scope: 'dataset', byJudge: false, byDataset: true },
  { scope: 'judge', byJudge: true, byDataset: false },
  { scope: 'all', byJudge: false, byDataset: false },
];

/** Counters: gated gold-PASS, their #HF, gated gold-FAIL, their #HF. */
function countDirections(pair: PairedItem, counters: number[]): void {
  if (pair.status !== 'gated') return;
  const offset = pair.gold === 'pass' ? 0 : pair.gold === 'fail' ? 2 : -1;
  if (offset < 0) return;
  counters[offset] = 1;
  if (pair.harmful) counters[offset + 1] = 1;
}

/** One tally per set of excluded datasets (the counts are carried over as reps land). */
const specs = new Map<string, TallySpec<DirectionScope>>();

function directionTally(excludeDatasets: readonly string[]): TallySpec<DirectionScope> {
  const id = `direction\u0000${[...excludeDatasets].sort().join('\u0000')}`;
  let spec = specs.get(id);
  if (!spec) {
    const excluded = new Set(excludeDatasets);
    spec = {
      id,
      levels,
      width: 4,
      count: countDirections,
      ...(excluded.size ? { include: (pair: PairedItem) => !excluded.has(pair.dataset) } : {}),
    };
    specs.set(id, spec);
  }
  return spec;
}

/** Severity vs leniency harmful flip rates per condition × dimension at every App. D scope. */
export function directionAsymmetry(
  rows: readonly JudgeRepRow[],
  options: DirectionOptions = {},
): DirectionRow[] {
  const tally = directionTally(options.excludeDatasets ?? []);
  return scopedTally(pairItems(rows, options), tally).map(
    ({ counters, simulatedPairs, scope, ...where }) => {
      const [severityGate = 0, severityHarmful = 0, leniencyGate = 0, leniencyHarmful = 0] =
        counters;
      return {
        scope,
        ...where,
        severity: rate(severityGate, severityHarmful),
        leniency: rate(leniencyGate, leniencyHarmful),
        n: severityGate + leniencyGate,
        simulated: simulatedPairs > 0,
      };
    },
  );
}
