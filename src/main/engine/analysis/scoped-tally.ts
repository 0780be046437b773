/**
 * Integer tallies of paired items per condition × dimension at each pooling scope, kept per
 * pairing and carried over when the pairing grows (pair-index.ts `pairingGrowth`): the units of
 * the items a batch touched are taken out of their groups and their new units put in, so a live
 * refresh counts the batch, not the study. Rates are derived from the counts alone,
 * the same way for a fresh tally and a carried one, so both give identical rows.
 *
 * A unit is a pair by default; a spec may make its own units from each item's pairs (the
 * mitigation table's before/after pairs of one item, mitigation.ts). Group order is the input
 * order's first appearance: arms, then within each arm each level's
 * groups. A carried tally keeps each group's first place (first-seen.ts) and sorts by it, so
 * listing the groups costs the groups, not the pairs.
 */
import { FirstSeen, type SeenUnit } from './first-seen';
import { compositeKey, groupBy } from './group';
import { itemRanks, itemRowsKey, type ItemRanks } from './item-order';
import { pairingGrowth, pairingRanks, rowsGrowth } from './pair-index';
import type { PairedItem } from './pairs';
import type { JudgeRepRow, Scope } from './types';

/** What a tally counts: pairs, or units a spec makes of an item's pairs. */
export interface TallyUnit {
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string;
  readonly dataset: string;
  readonly simulated: boolean;
}

/** One pooling level of an arm: which fields key its groups (null = pooled over). */
export interface TallyLevel<Scope extends string> {
  readonly scope: Scope;
  readonly byJudge: boolean;
  readonly byDataset: boolean;
}

/** Table 6's pools: each judge on each dataset, each judge over all datasets, everything. */
export const TABLE_6_LEVELS: readonly TallyLevel<Scope>[] = [
  { scope: 'judge-dataset', byJudge: true, byDataset: true },
  { scope: 'judge', byJudge: true, byDataset: false },
  { scope: 'all', byJudge: false, byDataset: false },
];

/** What a tally counts and which units enter it. */
export interface TallySpec<
  Scope extends string,
  Unit extends TallyUnit = PairedItem,
  Input = PairedItem,
> {
  /** Distinguishes tallies kept on the same pairing. */
  readonly id: string;
  readonly levels: readonly TallyLevel<Scope>[];
  /** How many counters `count` fills. */
  readonly width: number;
  /** Adds the unit's contribution to `counters` (each counter an integer). */
  readonly count: (unit: Unit, counters: number[]) => void;
  /** Units left out (e.g. App. D's excluded dataset); all enter when absent. */
  readonly include?: (unit: Unit) => boolean;
  /** The units of one item's input (pairs or rows), in order; the pairs themselves when absent. */
  readonly units?: (input: readonly Input[]) => readonly Unit[];
  /** False for a unit whose counts cannot be taken out again exactly: its batch is counted in full. */
  readonly carries?: (unit: Unit) => boolean;
  /** Arms sorted by this first, then by first appearance. */
  readonly armRank?: (unit: Unit) => number;
}

/** One group's counts and where it sits. */
export interface TallyGroup<Scope extends string> {
  readonly scope: Scope;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  /** The spec's counters, summed over the group's units. */
  readonly counters: readonly number[];
  /** Units in the group with a simulated rep behind them. */
  readonly simulatedPairs: number;
}

interface MutableGroup<Scope extends string> {
  readonly scope: Scope;
  readonly level: number;
  readonly arm: string;
  readonly armRank: number;
  readonly condition: string;
  readonly dimension: string;
  readonly judge: string | null;
  readonly dataset: string | null;
  readonly counters: number[];
  simulatedPairs: number;
}

interface TallyState<Scope extends string, Unit extends TallyUnit> {
  groups: FirstSeen<Unit, MutableGroup<Scope>>;
  carried: boolean;
}

type AnySpec = TallySpec<string, TallyUnit, unknown>;
type AnyState = TallyState<string, TallyUnit>;

/** One touched item's input before and after a batch. */
interface GrownInput {
  readonly key: string;
  readonly removed: readonly unknown[];
  readonly added: readonly unknown[];
}

/** Where a tally's input comes from: its items in order, how it grew, its item ranks. */
interface TallyInput {
  readonly array: readonly unknown[];
  readonly items: () => [string, readonly unknown[]][];
  readonly growth: () => { previous: readonly unknown[]; items: readonly GrownInput[] } | undefined;
  readonly ranks: () => ItemRanks | undefined;
}

const tallies = new WeakMap<readonly unknown[], Map<string, AnyState>>();
/** How each spec's last tally was made: counted in full, carried over, or carried and gone stale. */
const lastUpdates = new Map<string, 'full' | 'carried' | 'stale'>();

/** How the last tally of the spec with this id was made (tests and the bench print it). */
export function lastTallyUpdate(id: string): 'full' | 'carried' | 'stale' | undefined {
  return lastUpdates.get(id);
}

function groupKey(arm: string, level: TallyLevel<string>, unit: TallyUnit): string {
  return compositeKey(
    arm,
    level.scope,
    level.byJudge ? unit.judge : null,
    level.byDataset ? unit.dataset : null,
  );
}

function newGroup(
  spec: AnySpec,
  level: number,
  arm: string,
  unit: TallyUnit,
): MutableGroup<string> {
  const { scope, byJudge, byDataset } = spec.levels[level] as TallyLevel<string>;
  return {
    scope,
    level,
    arm,
    armRank: spec.armRank ? spec.armRank(unit) : 0,
    condition: unit.condition,
    dimension: unit.dimension,
    judge: byJudge ? unit.judge : null,
    dataset: byDataset ? unit.dataset : null,
    counters: new Array<number>(spec.width).fill(0),
    simulatedPairs: 0,
  };
}

/** A unit's group keys (one per level) and counts. */
interface Counted {
  readonly unit: TallyUnit;
  readonly index: number;
  readonly arm: string;
  readonly keys: readonly string[];
  readonly counters: readonly number[];
}

/** The included units of one item's input with their group keys and counts. */
function countUnits(spec: AnySpec, input: readonly unknown[]): Counted[] {
  const units = spec.units ? spec.units(input) : (input as readonly TallyUnit[]);
  const out: Counted[] = [];
  units.forEach((unit, index) => {
    if (spec.include && !spec.include(unit)) return;
    const counters = new Array<number>(spec.width).fill(0);
    spec.count(unit, counters);
    const arm = compositeKey(unit.condition, unit.dimension);
    out.push({
      unit,
      index,
      arm,
      keys: spec.levels.map((level) => groupKey(arm, level, unit)),
      counters,
    });
  });
  return out;
}

function apply(group: MutableGroup<string>, counted: Counted, sign: 1 | -1): void {
  for (let counter = 0; counter < group.counters.length; counter += 1)
    group.counters[counter] =
      (group.counters[counter] ?? 0) + sign * (counted.counters[counter] ?? 0);
  if (counted.unit.simulated) group.simulatedPairs += sign;
}

/** The pairs item by item: runs of one item, or (with units) every item's pairs together. */
function byItem(spec: AnySpec, pairs: readonly PairedItem[]): [string, PairedItem[]][] {
  // A spec's units join pairs of one item, so they need all of it even if its pairs are apart.
  if (spec.units) return [...groupBy(pairs, itemRowsKey)];
  const runs: [string, PairedItem[]][] = [];
  for (const pair of pairs) {
    const key = itemRowsKey(pair);
    const last = runs[runs.length - 1];
    if (last && last[0] === key) last[1].push(pair);
    else runs.push([key, [pair]]);
  }
  return runs;
}

function fullState(spec: AnySpec, input: TallyInput): AnyState {
  const groups = new FirstSeen<TallyUnit, MutableGroup<string>>();
  for (const [item, itemInput] of input.items())
    for (const counted of countUnits(spec, itemInput))
      counted.keys.forEach((key, level) => {
        const entry = groups.see(key, item, counted.index, counted.unit, () =>
          newGroup(spec, level, counted.arm, counted.unit),
        );
        apply(entry.payload, counted, 1);
      });
  return { groups, carried: false };
}

/** Carries `state` over the growth's items; false when it went stale (count in full). */
function carry(spec: AnySpec, state: AnyState, input: TallyInput): boolean {
  const growth = input.growth();
  const ranks = input.ranks();
  if (!growth || !ranks) return false;
  const touched = growth.items.map((item) => ({
    item: item.key,
    removed: countUnits(spec, item.removed),
    added: countUnits(spec, item.added),
  }));
  const carries = spec.carries;
  if (
    carries &&
    touched.some(({ removed, added }) =>
      [...removed, ...added].some((counted) => !carries(counted.unit)),
    )
  )
    return false;
  for (const { removed } of touched)
    for (const counted of removed)
      for (const key of counted.keys) {
        const entry = state.groups.entries.get(key);
        if (!entry) return false;
        apply(entry.payload, counted, -1);
      }
  // A group the batch brings in is made from the unit that brought it.
  const newGroups = new Map<string, { level: number; arm: string }>();
  for (const { added } of touched)
    for (const counted of added)
      counted.keys.forEach((key, level) => newGroups.set(key, { level, arm: counted.arm }));
  const ok = state.groups.carry(
    touched.map(({ item, removed, added }) => ({
      item,
      removed: removed.flatMap((counted) => counted.keys),
      added: added.flatMap((counted): SeenUnit<TallyUnit>[] =>
        counted.keys.map((key) => ({ key, index: counted.index, value: counted.unit })),
      ),
    })),
    ranks,
    (key, unit) => {
      const where = newGroups.get(key) as { level: number; arm: string };
      return newGroup(spec, where.level, where.arm, unit);
    },
  );
  if (!ok) return false;
  for (const { added } of touched)
    for (const counted of added)
      for (const key of counted.keys) {
        const entry = state.groups.entries.get(key);
        if (!entry) return false;
        apply(entry.payload, counted, 1);
      }
  state.carried = true;
  return true;
}

function stateFor(input: TallyInput, spec: AnySpec): AnyState {
  let bySpec = tallies.get(input.array);
  if (!bySpec) {
    bySpec = new Map();
    tallies.set(input.array, bySpec);
  }
  const known = bySpec.get(spec.id);
  if (known) return known;
  const growth = input.growth();
  const carried = growth ? tallies.get(growth.previous)?.get(spec.id) : undefined;
  let state: AnyState | undefined;
  if (growth && carried) {
    // The state moves on: the earlier input keeps its derived rows, not its counters.
    tallies.get(growth.previous)?.delete(spec.id);
    if (carry(spec, carried, input)) state = carried;
    lastUpdates.set(spec.id, state ? 'carried' : 'stale');
  } else lastUpdates.set(spec.id, 'full');
  state ??= fullState(spec, input);
  bySpec.set(spec.id, state);
  return state;
}

/** The groups of a tally in first-appearance order (arms by `armRank` first), with their counts. */
function listGroups<Scope extends string>(input: TallyInput, spec: AnySpec): TallyGroup<Scope>[] {
  const state = stateFor(input, spec);
  const ranks = state.carried ? input.ranks() : undefined;
  const entries = ranks ? state.groups.ordered(ranks) : [...state.groups.entries];
  const arms = new Map<string, { rank: number; levels: MutableGroup<string>[][] }>();
  for (const [, { payload }] of entries) {
    let arm = arms.get(payload.arm);
    if (!arm) {
      arm = { rank: payload.armRank, levels: spec.levels.map(() => []) };
      arms.set(payload.arm, arm);
    }
    arm.levels[payload.level]?.push(payload);
  }
  const ordered = [...arms.values()];
  if (spec.armRank) ordered.sort((a, b) => a.rank - b.rank);
  return ordered.flatMap((arm) =>
    arm.levels
      .flat()
      .map(({ scope, condition, dimension, judge, dataset, counters, simulatedPairs }) => ({
        scope: scope as Scope,
        condition,
        dimension,
        judge,
        dataset,
        counters: [...counters],
        simulatedPairs,
      })),
  );
}

/** The groups of `pairs` under `spec`, in first-appearance order, with their counts. */
export function scopedTally<Scope extends string, Unit extends TallyUnit = PairedItem>(
  pairs: readonly PairedItem[],
  spec: TallySpec<Scope, Unit>,
): TallyGroup<Scope>[] {
  const any = spec as unknown as AnySpec;
  return listGroups(
    {
      array: pairs,
      items: () => byItem(any, pairs),
      growth: () => pairingGrowth(pairs),
      ranks: () => pairingRanks(pairs),
    },
    any,
  );
}

/**
 * The groups of a tally over rows (its spec makes units of each item's rows), carried over when
 * the report cache grows the array (pair-index.ts `rowsGrowth`): graded flips (graded.ts).
 */
export function rowTally<Scope extends string, Unit extends TallyUnit>(
  rows: readonly JudgeRepRow[],
  spec: TallySpec<Scope, Unit, JudgeRepRow>,
): TallyGroup<Scope>[] {
  return listGroups(
    {
      array: rows,
      items: () => [...groupBy(rows, itemRowsKey)],
      growth: () => {
        const growth = rowsGrowth(rows);
        return (
          growth && {
            previous: growth.previous,
            items: growth.items.map((item) => ({
              key: item.key,
              removed: item.previousRows,
              added: item.rows,
            })),
          }
        );
      },
      ranks: () => itemRanks(rows),
    },
    spec as unknown as AnySpec,
  );
}
