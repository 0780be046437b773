/**
 * What the report tables read from a study's rows besides their pairs: which arms, dimensions
 * and datasets there are, whether anything is simulated, how many reps a safety setting ended.
 * Every table's notes asked these of the whole study in passes of their own; they are counted
 * here once per row array (the report cache hands out one per study revision), and when the
 * cache grows an array from an earlier one the counts are carried over and only the batch's
 * items counted again (a live refresh costs the batch, not the study).
 */
import { FirstSeen, type TouchedItem } from './first-seen';
import { itemRanks, itemRowsKey } from './item-order';
import { uncuedRepeatKey } from '../../../shared/condition-keys';
import { type JudgeRepRow, UNCUED_CONDITION } from './types';

/** The facts of one row array. Lists are in first-appearance order, as a pass over the rows gives. */
export interface RowFacts {
  readonly reps: number;
  readonly simulated: boolean;
  /** Some rep knows how it ended (native studies). */
  readonly withOutcome: boolean;
  /** The reps that ended `budget_exhausted`. */
  readonly exhausted: readonly JudgeRepRow[];
  readonly hasControl: boolean;
  readonly hasCued: boolean;
  readonly hasVerdict: boolean;
  readonly hasGold: boolean;
  /** A cued rep carries a taxonomy size (error attribution, §3.2). */
  readonly cuedAttribution: boolean;
  readonly datasets: ReadonlySet<string>;
  readonly judges: ReadonlySet<string>;
  /** Each condition's first row. */
  readonly conditions: ReadonlyMap<string, JudgeRepRow>;
  /** Dimensions with a pass/fail verdict on some rep. */
  readonly verdictDimensions: readonly string[];
  /** Dimensions with a graded score on some rep. */
  readonly scoreDimensions: readonly string[];
  /** Dimensions with a gold label on some rep. */
  readonly goldDimensions: ReadonlySet<string>;
}

/** The rows of one item before and after a batch (the report cache's growth). */
export interface GrownRows {
  readonly key: string;
  readonly previousRows: readonly JudgeRepRow[];
  readonly rows: readonly JudgeRepRow[];
}

interface FactsState {
  reps: number;
  simulated: number;
  withOutcome: number;
  control: number;
  cued: number;
  verdict: number;
  gold: number;
  cuedAttribution: number;
  datasets: Map<string, number>;
  judges: Map<string, number>;
  goldDimensions: Map<string, number>;
  exhausted: Map<string, readonly JudgeRepRow[]>;
  conditions: FirstSeen<JudgeRepRow, null>;
  verdictDimensions: FirstSeen<JudgeRepRow, null>;
  scoreDimensions: FirstSeen<JudgeRepRow, null>;
  /** Carried over at least once: entries are no longer in first-appearance order. */
  carried: boolean;
}

const facts = new WeakMap<readonly JudgeRepRow[], RowFacts>();
const states = new WeakMap<readonly JudgeRepRow[], FactsState>();
/** The facts' first-seen lists carry no payload. */
const none = (): null => null;

function bump(counts: Map<string, number>, key: string, sign: 1 | -1): void {
  const count = (counts.get(key) ?? 0) + sign;
  if (count === 0) counts.delete(key);
  else counts.set(key, count);
}

/** Adds (or with -1 takes out) the plain counts of some rows. */
function count(state: FactsState, rows: readonly JudgeRepRow[], sign: 1 | -1): void {
  for (const row of rows) {
    state.reps += sign;
    if (row.simulated) state.simulated += sign;
    if (row.outcome != null) state.withOutcome += sign;
    // The uncued repeat (`uncued+repeat`) is a second control run, never a cued arm.
    const cued = row.condition !== UNCUED_CONDITION && row.condition !== uncuedRepeatKey;
    if (cued) state.cued += sign;
    else state.control += sign;
    if (cued && row.taxonomySize != null) state.cuedAttribution += sign;
    if (row.verdict !== null) state.verdict += sign;
    if (row.gold !== null) {
      state.gold += sign;
      bump(state.goldDimensions, row.dimension, sign);
    }
    bump(state.datasets, row.dataset, sign);
    bump(state.judges, row.judge, sign);
  }
}

function emptyState(): FactsState {
  return {
    reps: 0,
    simulated: 0,
    withOutcome: 0,
    control: 0,
    cued: 0,
    verdict: 0,
    gold: 0,
    cuedAttribution: 0,
    datasets: new Map(),
    judges: new Map(),
    goldDimensions: new Map(),
    exhausted: new Map(),
    conditions: new FirstSeen(),
    verdictDimensions: new FirstSeen(),
    scoreDimensions: new FirstSeen(),
    carried: false,
  };
}

function fullState(rows: readonly JudgeRepRow[]): FactsState {
  const state = emptyState();
  count(state, rows, 1);
  let item = '';
  let index = 0;
  for (const row of rows) {
    const key = itemRowsKey(row);
    index = key === item ? index + 1 : 0;
    item = key;
    state.conditions.see(row.condition, key, index, row, none);
    if (row.verdict !== null) state.verdictDimensions.see(row.dimension, key, index, row, none);
    if (row.score !== null) state.scoreDimensions.see(row.dimension, key, index, row, none);
    if (row.outcome === 'budget_exhausted')
      state.exhausted.set(key, [...(state.exhausted.get(key) ?? []), row]);
  }
  return state;
}

function keysOf(
  rows: readonly JudgeRepRow[],
  field: (row: JudgeRepRow) => string | null,
): TouchedItem<JudgeRepRow>['added'] {
  const units: { key: string; index: number; value: JudgeRepRow }[] = [];
  rows.forEach((row, index) => {
    const key = field(row);
    if (key !== null) units.push({ key, index, value: row });
  });
  return units;
}

/**
 * Carries the facts of `previous` over to `next` (the report cache grew `next` from it by the
 * given items), when `previous` has them; `next` is otherwise counted in full when asked.
 */
export function growRowFacts(
  previous: readonly JudgeRepRow[],
  next: readonly JudgeRepRow[],
  items: readonly GrownRows[],
): void {
  const state = states.get(previous);
  if (!state) return;
  states.delete(previous);
  const fields: [FirstSeen<JudgeRepRow, null>, (row: JudgeRepRow) => string | null][] = [
    [state.conditions, (row) => row.condition],
    [state.verdictDimensions, (row) => (row.verdict !== null ? row.dimension : null)],
    [state.scoreDimensions, (row) => (row.score !== null ? row.dimension : null)],
  ];
  for (const item of items) {
    count(state, item.previousRows, -1);
    count(state, item.rows, 1);
    const exhausted = item.rows.filter((row) => row.outcome === 'budget_exhausted');
    if (exhausted.length) state.exhausted.set(item.key, exhausted);
    else state.exhausted.delete(item.key);
  }
  const ranks = itemRanks(next);
  for (const [seen, field] of fields) {
    const touched = items.map((item) => ({
      item: item.key,
      removed: keysOf(item.previousRows, field).map((unit) => unit.key),
      added: keysOf(item.rows, field),
    }));
    if (!seen.carry(touched, ranks, none)) return;
  }
  state.carried = true;
  states.set(next, state);
}

function derive(rows: readonly JudgeRepRow[], state: FactsState): RowFacts {
  const ranks = state.carried ? itemRanks(rows) : null;
  const inOrder = (seen: FirstSeen<JudgeRepRow, null>) =>
    ranks ? seen.ordered(ranks) : [...seen.entries];
  return {
    reps: state.reps,
    simulated: state.simulated > 0,
    withOutcome: state.withOutcome > 0,
    exhausted: [...state.exhausted.values()].flat(),
    hasControl: state.control > 0,
    hasCued: state.cued > 0,
    hasVerdict: state.verdict > 0,
    hasGold: state.gold > 0,
    cuedAttribution: state.cuedAttribution > 0,
    datasets: new Set(state.datasets.keys()),
    judges: new Set(state.judges.keys()),
    conditions: new Map(inOrder(state.conditions).map(([key, entry]) => [key, entry.first.value])),
    verdictDimensions: inOrder(state.verdictDimensions).map(([key]) => key),
    scoreDimensions: inOrder(state.scoreDimensions).map(([key]) => key),
    goldDimensions: new Set(state.goldDimensions.keys()),
  };
}

/** The facts of `rows`, once per array (rows are never mutated; callers filter into new arrays). */
export function rowFacts(rows: readonly JudgeRepRow[]): RowFacts {
  const cached = facts.get(rows);
  if (cached) return cached;
  let state = states.get(rows);
  if (!state) {
    state = fullState(rows);
    states.set(rows, state);
  }
  const derived = derive(rows, state);
  facts.set(rows, derived);
  return derived;
}
