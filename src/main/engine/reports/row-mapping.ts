/**
 * The mapping from stored columns to analysis rows, shared by the full read (rows.ts) and the
 * incremental cache (row-cache.ts), so both give the same rows.
 */
import type { BinaryVerdict, CueDirection, JudgeRepRow, RepOutcomeName } from '../analysis';
import { baseConditionKey, cueKey, type StudyCondition } from '../../../shared/condition-keys';
import type { NativeAnalysisRecord } from '../store/faces/reps';

/** The value as a verdict, or null. */
export function verdictOf(value: unknown): BinaryVerdict | null {
  return value === 'pass' || value === 'fail' ? value : null;
}

/** The value as a direction, or null. */
export function directionOf(value: unknown): CueDirection | null {
  return value === 'severity' || value === 'leniency' ? value : null;
}

/** The value as a number, or null. */
export function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The value as a outcome, or null. */
export function outcomeOf(value: string): RepOutcomeName | null {
  return value === 'verdict' ||
    value === 'invalid_verdict' ||
    value === 'budget_exhausted' ||
    value === 'error'
    ? value
    : null;
}

/** The value as a text, or null. */
export function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The one dimension with a deterministic verifier (App. G: "Only task success has a
 * deterministic external verifier"). Other binary dimensions take the meta-judge consensus as
 * noisy gold: a results import supplies it in its `gold` column, a native study has it once
 * `cuelab classify --voters` derived it (metajudge/consensus, table dimension_gold).
 */
export const TASK_SUCCESS = 'task_success';

/** The columns of one finished native rep that an analysis row is made from. */
export type NativeRow = Omit<
  NativeAnalysisRecord,
  'rep_rowid' | 'item_position' | 'condition_position'
>;

/** What describe() gives for a condition. */
export type ConditionFields = ReturnType<typeof describe>;

/** Display and pairing fields of a condition: cue label, placement, mitigation. */
export function describe(condition: StudyCondition | undefined) {
  if (!condition?.cue) return { cueLabel: null, placement: null, mitigation: null };
  const mitigation = condition.mitigations.map((spec) => spec.id).join('+');
  return {
    cueLabel: cueKey(condition.cue),
    placement: condition.placement,
    mitigation: mitigation === '' ? null : mitigation,
  };
}

/** One native rep as an analysis row; `conditions` holds describe() of each condition key. */
export function nativeAnalysisRow(
  row: NativeRow,
  conditions: ReadonlyMap<string, ConditionFields>,
): JudgeRepRow {
  const valid = row.outcome === 'verdict';
  const dimension = row.dimension ?? TASK_SUCCESS;
  const attribution = row.kind === 'error_attribution';
  const present = valid && attribution ? numberOf(row.present) : null;
  const absent = valid && attribution ? numberOf(row.absent) : null;
  return {
    itemId: row.item_id,
    dataset: row.dataset,
    judge: row.judge_id,
    // An extra dimension's arms (`KEY#dimension`) pair by KEY within their own dimension.
    condition: baseConditionKey(row.condition_key),
    cueDirection: directionOf(row.direction),
    rep: row.rep,
    verdict: valid && row.kind === 'binary' ? verdictOf(row.verdict) : null,
    score: valid && row.kind === 'graded' ? numberOf(row.score) : null,
    // App. G: only task success has a verifier; the item's label is not another dimension's,
    // whose gold is the meta-judge consensus on the uncued evidence.
    gold: dimension === TASK_SUCCESS ? verdictOf(row.gold) : verdictOf(row.consensus_gold),
    dimension,
    turns: row.turns,
    simulated: row.simulated === 1,
    categoriesPresent: present,
    taxonomySize: present !== null && absent !== null ? present + absent : null,
    ...(conditions.get(row.condition_key) ?? describe(undefined)),
    outcome: outcomeOf(row.outcome),
  };
}

/**
 * An error-attribution rep with no valid verdict still belongs to its trajectory (headroom.ts
 * counts it as incomplete), so it takes the taxonomy size its item's valid reps report.
 */
export function withTaxonomySizes(rows: readonly JudgeRepRow[]): JudgeRepRow[] {
  const sizes = new Map<string, number>();
  const key = (row: JudgeRepRow) => `${row.dataset}\u0000${row.itemId}`;
  for (const row of rows) if (row.taxonomySize != null) sizes.set(key(row), row.taxonomySize);
  return rows.map((row) =>
    row.dimension === 'error_attribution' && row.taxonomySize == null && sizes.has(key(row))
      ? { ...row, taxonomySize: sizes.get(key(row)) ?? null }
      : row,
  );
}
