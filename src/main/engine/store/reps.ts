import type { Store } from './database';
import { isJsonRecord, readOptionalJsonColumn } from './json-column';

/** Filters of `listReps`. */
export interface RepFilter {
  studyId: string;
  judgeId?: string | undefined;
  dataset?: string | undefined;
  conditionKey?: string | undefined;
  itemId?: string | undefined;
  limit?: number | undefined;
}

/** The columns a rep listing selects (jobs, judge_reps, study_items). */
export interface RepListRow {
  rep_id: string;
  item_id: string;
  dataset: string;
  judge_id: string;
  condition_key: string;
  direction: string;
  rep: number;
  outcome: string;
  final_verdict_json: string | null;
  gold: string | null;
  turns: number;
  tool_results: number;
  simulated: number;
}

interface ImportedRow {
  line: number;
  item_id: string;
  dataset: string;
  judge: string;
  condition: string;
  cue_direction: string | null;
  rep: number;
  verdict: string | null;
  score: number | null;
  gold: string | null;
  turns: number | null;
  simulated: string | number | null;
}

/** Reps of an imported study (no transcripts: the record is all there is). */
function listImportedReps(store: Store, filter: RepFilter) {
  const rows = store.db
    .prepare(
      `SELECT line, item_id, dataset, judge, condition, cue_direction, rep, verdict, score, gold, turns,
              coalesce(json_extract(extra_json, '$.simulated'),
                       (SELECT simulated FROM studies WHERE id = @studyId)) AS simulated
         FROM imported_reps
        WHERE study_id = @studyId
          AND (@judgeId IS NULL OR judge = @judgeId)
          AND (@dataset IS NULL OR dataset = @dataset)
          AND (@conditionKey IS NULL OR condition = @conditionKey)
          AND (@itemId IS NULL OR item_id = @itemId)
        ORDER BY line LIMIT @limit`,
    )
    .all({
      studyId: filter.studyId,
      judgeId: filter.judgeId ?? null,
      dataset: filter.dataset ?? null,
      conditionKey: filter.conditionKey ?? null,
      itemId: filter.itemId ?? null,
      limit: filter.limit ?? 500,
    }) as ImportedRow[];
  return rows.map((row) => ({
    repId: `imported:${row.line}`,
    itemId: row.item_id,
    dataset: row.dataset,
    judgeId: row.judge,
    conditionKey: row.condition,
    direction: row.cue_direction ?? '',
    rep: row.rep,
    outcome: row.verdict === null && row.score === null ? 'invalid_verdict' : 'verdict',
    verdict: row.verdict ?? (row.score === null ? null : String(row.score)),
    gold: row.gold,
    turns: row.turns ?? 0,
    toolResults: 0,
    simulated: ['1', 'true'].includes(String(row.simulated).toLowerCase()),
  }));
}

/** The stored reps of a study, narrowed to a chart cell when asked. */
export function listReps(store: Store, filter: RepFilter) {
  const origin = store.db
    .prepare('SELECT origin FROM studies WHERE id = ?')
    .pluck()
    .get(filter.studyId);
  if (origin === 'imported') return listImportedReps(store, filter);
  const rows = store.db
    .prepare(
      `${NATIVE_REPS_WHERE}
          AND (@itemId IS NULL OR j.item_id = @itemId)
        ORDER BY i.position, j.condition_key, j.judge_id, j.rep LIMIT @limit`,
    )
    .all({
      studyId: filter.studyId,
      judgeId: filter.judgeId ?? null,
      dataset: filter.dataset ?? null,
      conditionKey: filter.conditionKey ?? null,
      itemId: filter.itemId ?? null,
      limit: filter.limit ?? 500,
    }) as RepListRow[];
  return rows.map(nativeRepSummary);
}

/** The columns of RepListRow over jobs `j`, judge_reps `r` and study_items `i`. */
export const NATIVE_REP_COLUMNS = `j.rep_id, j.item_id, i.dataset, j.judge_id, j.condition_key, j.direction, j.rep,
       r.outcome, r.final_verdict_json, i.gold, r.turns, r.tool_results, r.simulated`;

/**
 * A study's done native reps with the columns of RepListRow, narrowed by the optional
 * @judgeId, @dataset and @conditionKey parameters (null: any); callers add conditions and order.
 */
export const NATIVE_REPS_WHERE = `SELECT ${NATIVE_REP_COLUMNS}
  FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
  JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id
 WHERE j.study_id = @studyId AND j.state = 'done'
   AND (@judgeId IS NULL OR j.judge_id = @judgeId)
   AND (@dataset IS NULL OR i.dataset = @dataset)
   AND (@conditionKey IS NULL OR j.condition_key = @conditionKey)`;

/** A native rep row as listed (its verdict read from the stored final verdict). */
export function nativeRepSummary(row: RepListRow) {
  const stored = readOptionalJsonColumn(row.final_verdict_json, {
    table: 'judge_reps',
    row: row.rep_id,
    field: 'final_verdict_json',
  });
  const verdict = isJsonRecord(stored) ? stored : null;
  const outcome = typeof verdict?.outcome === 'string' ? verdict.outcome : undefined;
  const score = typeof verdict?.score === 'number' ? verdict.score : undefined;
  return {
    repId: row.rep_id,
    itemId: row.item_id,
    dataset: row.dataset,
    judgeId: row.judge_id,
    conditionKey: row.condition_key,
    direction: row.direction,
    rep: row.rep,
    outcome: row.outcome,
    verdict: outcome ?? (score === undefined ? null : String(score)),
    gold: row.gold,
    turns: row.turns,
    toolResults: row.tool_results,
    simulated: row.simulated === 1,
  };
}
