/**
 * Integer tallies of paired items per condition × dimension at each pooling scope, kept per
 * pairing and carried over when the pairing grows (pair-index.ts `pairingGrowth`): the pairs of
 * the items a batch touched are taken out of their groups and their new pairs put in, so a live
 * refresh counts the batch, not the study (issue 15). Rates are derived from the counts alone,
 * the same way for a fresh tally and a carried one, so both give identical rows.
 *
 * Group order is the input order's first appearance (as group.ts `scopedGroups`): arms, then
 * within each arm each level's groups. It is read again on every derivation from one pass over
 * the pairs' precomputed group keys (no counting, no string building).
 */
import { compositeKey } from './group';
import { pairingGrowth } from './pair-index';
import type { PairedItem } from './pairs';

/** One pooling level of an arm: which fields key its groups (null = pooled over). */
export interface TallyLevel<Scope extends string> {
  readonly scope: Scope;
  readonly byJudge: boolean;
  readonly byDataset: boolean;
}

/** What a tally counts and which pairs enter it. */
export interface TallySpec<Scope extends string> {
  /** Distinguishes tallies kept on the same pairing. */
  readonly id: string;
  readonly levels: readonly TallyLevel<Scope>[];
  /** How many counters `count` fills. */
  readonly width: number;
  /** Adds the pair's contribution to `counters` (each counter an integer). */
  readonly count: (pair: PairedItem, counters: number[]) => void;
  /** Pairs left out (e.g. App. D's excluded dataset); all enter when absent. */
  readonly include?: (pair: PairedItem) => boolean;
}

/** One group's counts and where it sits. */
export interface TallyGroup<Scope extends string> {
  readonly scope: Scope;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  /** The spec's counters, summed over the group's pairs. */
  readonly counters: readonly number[];
  /** Pairs in the group with a simulated rep behind them. */
  readonly simulatedPairs: number;
}

interface MutableGroup<Scope extends string> {
  scope: Scope;
  condition: string;
  dimension: string;
  judge: string | null;
  dataset: string | null;
  counters: number[];
  simulatedPairs: number;
}

interface TallyState<Scope extends string> {
  groups: Map<string, MutableGroup<Scope>>;
}

const tallies = new WeakMap<readonly PairedItem[], Map<string, TallyState<string>>>();
/** Per spec id: each pair's group keys, arm first (computed once per pair object). */
const groupKeys = new Map<string, WeakMap<PairedItem, readonly string[]>>();

function keysOf<Scope extends string>(spec: TallySpec<Scope>, pair: PairedItem): readonly string[] {
  let known = groupKeys.get(spec.id);
  if (!known) {
    known = new WeakMap();
    groupKeys.set(spec.id, known);
  }
  const cached = known.get(pair);
  if (cached) return cached;
  const arm = compositeKey(pair.condition, pair.dimension);
  const keys = [
    arm,
    ...spec.levels.map((level) =>
      compositeKey(
        arm,
        level.scope,
        level.byJudge ? pair.judge : null,
        level.byDataset ? pair.dataset : null,
      ),
    ),
  ];
  known.set(pair, keys);
  return keys;
}

function apply<Scope extends string>(
  spec: TallySpec<Scope>,
  state: TallyState<Scope>,
  pair: PairedItem,
  sign: 1 | -1,
  scratch: number[],
): void {
  if (spec.include && !spec.include(pair)) return;
  scratch.fill(0);
  spec.count(pair, scratch);
  const keys = keysOf(spec, pair);
  spec.levels.forEach((level, index) => {
    const key = keys[index + 1] as string;
    let group = state.groups.get(key);
    if (!group) {
      group = {
        scope: level.scope,
        condition: pair.condition,
        dimension: pair.dimension,
        judge: level.byJudge ? pair.judge : null,
        dataset: level.byDataset ? pair.dataset : null,
        counters: new Array<number>(spec.width).fill(0),
        simulatedPairs: 0,
      };
      state.groups.set(key, group);
    }
    for (let counter = 0; counter < spec.width; counter += 1)
      group.counters[counter] = (group.counters[counter] ?? 0) + sign * (scratch[counter] ?? 0);
    if (pair.simulated) group.simulatedPairs += sign;
  });
}

function stateFor<Scope extends string>(
  pairs: readonly PairedItem[],
  spec: TallySpec<Scope>,
): TallyState<Scope> {
  let bySpec = tallies.get(pairs);
  if (!bySpec) {
    bySpec = new Map();
    tallies.set(pairs, bySpec);
  }
  const known = bySpec.get(spec.id) as TallyState<Scope> | undefined;
  if (known) return known;
  const scratch = new Array<number>(spec.width).fill(0);
  const growth = pairingGrowth(pairs);
  const carried = growth
    ? (tallies.get(growth.previous)?.get(spec.id) as TallyState<Scope> | undefined)
    : undefined;
  let state: TallyState<Scope>;
  if (growth && carried) {
    // The state moves on: the earlier pairing keeps its derived rows, not its counters.
    tallies.get(growth.previous)?.delete(spec.id);
    state = carried;
    for (const pair of growth.removed) apply(spec, state, pair, -1, scratch);
    for (const pair of growth.added) apply(spec, state, pair, 1, scratch);
  } else {
    state = { groups: new Map() };
    for (const pair of pairs) apply(spec, state, pair, 1, scratch);
  }
  bySpec.set(spec.id, state);
  return state;
}

/** The groups of `pairs` under `spec`, in first-appearance order, with their counts. */
export function scopedTally<Scope extends string>(
  pairs: readonly PairedItem[],
  spec: TallySpec<Scope>,
): TallyGroup<Scope>[] {
  const state = stateFor(pairs, spec);
  const arms = new Map<string, Set<string>[]>();
  for (const pair of pairs) {
    if (spec.include && !spec.include(pair)) continue;
    const keys = keysOf(spec, pair);
    const arm = keys[0] as string;
    let levels = arms.get(arm);
    if (!levels) {
      levels = spec.levels.map(() => new Set<string>());
      arms.set(arm, levels);
    }
    for (let index = 0; index < levels.length; index += 1)
      (levels[index] as Set<string>).add(keys[index + 1] as string);
  }
  const out: TallyGroup<Scope>[] = [];
  for (const levels of arms.values())
    for (const level of levels)
      for (const key of level) {
        const group = state.groups.get(key);
        if (group) out.push({ ...group, counters: [...group.counters] });
      }
  return out;
}
