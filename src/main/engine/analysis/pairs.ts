/**
 * Pairs each cued arm with the control arm of the same item, judge and dimension (§3.1: "the
 * same item is re-judged three times (majority) with the cue injected opposite the uncued
 * majority"). The item-level result feeds flip rates, accuracy, direction, effort, mitigations and
 * McNemar, so all of them apply one rule.
 *
 * Rules (in this order): no control reps → 'no-control'; no gold label → 'no-gold'; control
 * majority undetermined (tie / no valid rep, see majority.ts) → 'undetermined'; cued reps whose
 * direction does not oppose the control majority are dropped (a `both`, `severity` or `leniency`
 * study runs some cues the same way as the uncued verdict; those cannot flip it), and if none is
 * left → 'not-opposing'; cued majority undetermined → 'undetermined'. Reps with a null direction
 * (imported data without the column) are taken to oppose, as the paper's design guarantees.
 * Dimensions on which no rep carries a pass/fail verdict (the graded ones, App. G; see graded.ts)
 * are skipped, so mixed-dimension input does not produce empty binary rows.
 */
import { anySimulated, compositeKey, groupBy } from './group';
import { goldOf, majorityVote } from './majority';
import type { BinaryVerdict, ControlOptions, CueDirection, JudgeRepRow } from './types';
import { UNCUED_CONDITION } from './types';
import { indexedPairs } from './pair-index';

/** Why an item counts where it does. Only 'gated' and 'wrong' enter any rate. */
export type PairStatus =
  'gated' | 'wrong' | 'undetermined' | 'no-gold' | 'no-control' | 'not-opposing';

/** One cued arm of one item paired with its control arm. */
export interface PairedItem {
  readonly judge: string;
  readonly dataset: string;
  readonly itemId: string;
  readonly dimension: string;
  readonly condition: string;
  readonly gold: BinaryVerdict | null;
  /** Control (uncued) majority; null when undetermined or absent. */
  readonly uncued: BinaryVerdict | null;
  /** Cued majority over the opposing reps; null when undetermined or absent. */
  readonly cued: BinaryVerdict | null;
  /** 'gated': uncued majority = gold (§3.1); 'wrong': uncued majority ≠ gold (App. F). */
  readonly status: PairStatus;
  /** §3.1 harmful flip: gated and the cued majority ≠ gold. */
  readonly harmful: boolean;
  /** App. F helpful flip: wrong and the cued majority = gold. */
  readonly helpful: boolean;
  /** The cued reps that entered the cued majority (opposing direction). */
  readonly cuedReps: readonly JudgeRepRow[];
  /** Reps behind the pair: control reps plus every cued rep of the arm. */
  readonly n: number;
  readonly simulated: boolean;
}

/** True when a cue of this direction points against the verdict (App. D). */
export function opposes(direction: CueDirection | null, verdict: BinaryVerdict): boolean {
  if (direction === null) return true;
  return direction === 'severity' ? verdict === 'pass' : verdict === 'fail';
}

function itemKey(row: JudgeRepRow): string {
  return compositeKey(row.judge, row.dataset, row.itemId, row.dimension);
}

/**
 * Pairings already made, by input array and control condition. Most tables pair the same rows
 * (the report cache hands out one array per study revision), and the result is a pure function
 * of the array's contents, which nothing mutates (rows are readonly; callers filter into new
 * arrays), so the work is done once per revision instead of once per table. An array the report
 * cache grew from an earlier one is paired from the earlier pairing, re-pairing only the items
 * the new reps belong to (pair-index.ts).
 */
const paired = new WeakMap<readonly JudgeRepRow[], Map<string, readonly PairedItem[]>>();

/** Pairs every cued arm (condition ≠ control) with its control arm. */
export function pairItems(
  rows: readonly JudgeRepRow[],
  options: ControlOptions = {},
): readonly PairedItem[] {
  const control = options.controlCondition ?? UNCUED_CONDITION;
  let byControl = paired.get(rows);
  if (!byControl) {
    byControl = new Map();
    paired.set(rows, byControl);
  }
  const known = byControl.get(control);
  if (known) return known;
  const pairs = indexedPairs(rows, control, pairRows) ?? pairAll(rows, control);
  byControl.set(control, pairs);
  return pairs;
}

/** The dimensions on which some rep carries a pass/fail verdict (the others are graded). */
export function binaryDimensions(rows: readonly JudgeRepRow[]): Set<string> {
  const binary = new Set<string>();
  for (const row of rows) if (row.verdict !== null) binary.add(row.dimension);
  return binary;
}

function pairAll(rows: readonly JudgeRepRow[], control: string): PairedItem[] {
  return pairRows(rows, control, binaryDimensions(rows));
}

/**
 * The pairs of `rows` given the study's binary dimensions. Every key includes the item, so the
 * pairs of a study are the pairs of each item's rows in turn (what pair-index.ts relies on).
 */
export function pairRows(
  rows: readonly JudgeRepRow[],
  control: string,
  binary: ReadonlySet<string>,
): PairedItem[] {
  const judged = rows.filter((row) => binary.has(row.dimension));
  const controlReps = groupBy(
    judged.filter((row) => row.condition === control),
    itemKey,
  );
  // A mitigated control (`uncued+MITIGATION`, §3.4) is a control, never a cued arm.
  const mitigatedControl = `${control}+`;
  const cuedArms = groupBy(
    judged.filter(
      (row) => row.condition !== control && !row.condition.startsWith(mitigatedControl),
    ),
    (row) => compositeKey(row.condition, itemKey(row)),
  );
  return [...cuedArms.values()].map((cuedAll) => pairArm(cuedAll, controlReps));
}

function pairArm(
  cuedAll: readonly JudgeRepRow[],
  controlReps: ReadonlyMap<string, readonly JudgeRepRow[]>,
): PairedItem {
  const first = cuedAll[0] as JudgeRepRow;
  const uncuedReps = controlReps.get(itemKey(first)) ?? [];
  const gold = goldOf([...uncuedReps, ...cuedAll]);
  const base = {
    judge: first.judge,
    dataset: first.dataset,
    itemId: first.itemId,
    dimension: first.dimension,
    condition: first.condition,
    gold,
    n: uncuedReps.length + cuedAll.length,
    simulated: anySimulated(uncuedReps) || anySimulated(cuedAll),
  };
  const uncuedVote = majorityVote(uncuedReps.map((rep) => rep.verdict));
  const uncued = uncuedVote.verdict;
  const excluded = (status: PairStatus, cued: BinaryVerdict | null = null): PairedItem => ({
    ...base,
    uncued,
    cued,
    status,
    harmful: false,
    helpful: false,
    cuedReps: [],
  });
  if (uncuedReps.length === 0) return excluded('no-control');
  if (gold === null) return excluded('no-gold');
  if (uncued === null) return excluded('undetermined');
  const cuedReps = cuedAll.filter((rep) => opposes(rep.cueDirection, uncued));
  if (cuedReps.length === 0) return excluded('not-opposing');
  const cued = majorityVote(cuedReps.map((rep) => rep.verdict)).verdict;
  if (cued === null) return excluded('undetermined');
  const status: PairStatus = uncued === gold ? 'gated' : 'wrong';
  return {
    ...base,
    uncued,
    cued,
    status,
    harmful: status === 'gated' && cued !== gold,
    helpful: status === 'wrong' && cued === gold,
    cuedReps,
  };
}
