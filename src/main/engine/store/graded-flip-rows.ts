/**
 * The rows the graded flip finder reads (metajudge/flipped-graded.ts, App. G): a study's done
 * reps with a 1–100 score, cued and uncued, each with its dimension's consensus gold when one
 * was derived (a graded dimension has no verifier, so its gold is always the consensus). Which
 * of them flipped is decided by analysis/graded.ts, not here.
 */
import type { Outcome } from '../mechanism-labels';
import type { Store } from './database';
import { scoping } from './flip-rows';

/** One done rep with a graded score. */
export interface GradedRepRecord {
  repId: string;
  itemId: string;
  judgeId: string;
  dataset: string;
  conditionKey: string;
  /** `severity` / `leniency` on a cued rep, '' on a control. */
  direction: string;
  rep: number;
  dimension: string;
  score: number;
  gold: Outcome | null;
  simulated: boolean;
}

interface Row {
  rep_id: string;
  item_id: string;
  judge_id: string;
  dataset: string;
  condition_key: string;
  direction: string;
  rep: number;
  dimension: string;
  score: unknown;
  gold: unknown;
  simulated: number;
}

/** The study's done reps with a graded score; with `itemId`, that item's only. */
export function gradedRepRecords(
  store: Store,
  studyId: string,
  itemId?: string,
): GradedRepRecord[] {
  const where = itemId === undefined ? { studyId } : { studyId, itemId };
  const { done, scoped } = scoping(itemId);
  const rows = store.db
    .prepare(
      `SELECT j.rep_id, j.item_id, j.judge_id, si.dataset, j.condition_key, j.direction, j.rep,
              coalesce(json_extract(r.condition_json, '$.dimension'), 'task_success') AS dimension,
              json_extract(r.final_verdict_json, '$.score') AS score, g.gold, r.simulated
         FROM jobs j
         JOIN judge_reps r ON r.id = j.rep_id
         JOIN study_items si ON si.study_id = j.study_id AND si.item_id = j.item_id
         LEFT JOIN dimension_gold g
           ON g.study_id = j.study_id AND g.item_id = j.item_id
          AND g.dimension = json_extract(r.condition_json, '$.dimension')
        WHERE j.study_id = @studyId AND ${done} ${scoped}
          AND r.outcome = 'verdict' AND json_extract(r.final_verdict_json, '$.kind') = 'graded'
        ORDER BY j.item_id, j.judge_id, j.condition_key, j.direction, j.rep`,
    )
    // Iterated, not read whole, as in flip-rows.ts: the raw rows die young.
    .iterate(where) as IterableIterator<Row>;
  const records: GradedRepRecord[] = [];
  for (const row of rows) {
    // A damaged score is no evidence either way: the rep is left out, like an invalid verdict.
    if (typeof row.score !== 'number' || !Number.isFinite(row.score)) continue;
    records.push({
      repId: row.rep_id,
      itemId: row.item_id,
      judgeId: row.judge_id,
      dataset: row.dataset,
      conditionKey: row.condition_key,
      direction: row.direction,
      rep: row.rep,
      dimension: String(row.dimension),
      score: row.score,
      gold: row.gold === 'pass' || row.gold === 'fail' ? row.gold : null,
      simulated: row.simulated === 1,
    });
  }
  return records;
}
