/**
 * The rows the flip finder reads (metajudge/flipped.ts, §3.1, App. F, App. H): a study's cued
 * binary verdicts with their item's uncued majority and gold, and its uncued reps (the twins
 * a flip is compared with). Which of them flipped is the meta-judge's decision, not SQL's.
 */
import { EngineError } from '../errors';
import type { Outcome } from '../mechanism-labels';
import type { Store } from './database';
import { requiredOutcomeColumn } from './json-column';

/**
 * A rep's gold (App. G): the item's verifier label on task success, else the meta-judge
 * consensus stored for its dimension (metajudge/consensus/study-gold.ts); SQL over `r`, `si`
 * and `g`.
 */
const GOLD_OF_REP = `CASE WHEN coalesce(json_extract(r.condition_json, '$.dimension'), 'task_success')
  = 'task_success' THEN si.gold ELSE g.gold END`;

/** A done cued rep with a binary verdict, its item's uncued majority and a gold. */
export interface CuedBinaryRep {
  repId: string;
  itemId: string;
  judgeId: string;
  dataset: string;
  conditionKey: string;
  direction: 'severity' | 'leniency';
  rep: number;
  dimension: string;
  gold: Outcome;
  majority: Outcome;
  /** The verdict's outcome as stored (pass, fail, or anything a damaged verdict holds). */
  verdict: unknown;
  simulated: boolean;
}

/** A done uncued rep (either verdict or none). */
export interface UncuedRep {
  repId: string;
  itemId: string;
  judgeId: string;
  conditionKey: string;
  rep: number;
  /** Its binary outcome as stored; null when it gave no verdict. */
  verdict: unknown;
}

interface CuedRow {
  rep_id: string;
  item_id: string;
  judge_id: string;
  dataset: string;
  condition_key: string;
  direction: string;
  rep: number;
  dimension: string;
  gold: unknown;
  majority: unknown;
  verdict: unknown;
  simulated: number;
}

export function scoping(itemId: string | undefined): { done: string; scoped: string } {
  // Every job's condition is one of the study's, so the IN only lets SQLite seek the jobs'
  // unique (study, condition, item, ...) index for one item instead of scanning the study
  // (`+` keeps it from preferring the (study, state) index).
  return itemId === undefined
    ? { done: `j.state = 'done'`, scoped: '' }
    : {
        done: `+j.state = 'done'`,
        scoped: `AND j.condition_key IN (SELECT key FROM study_conditions WHERE study_id = @studyId)
       AND j.item_id = @itemId`,
      };
}

function cuedDirection(row: CuedRow): 'severity' | 'leniency' {
  if (row.direction === 'severity' || row.direction === 'leniency') return row.direction;
  throw new EngineError(
    'store_unreadable',
    `The workspace database is damaged: jobs row for rep ${row.rep_id}: direction: expected severity or leniency, found ${JSON.stringify(row.direction)}.`,
  );
}

/**
 * The study's done cued reps with a binary verdict other than their item's uncued majority
 * (only those can be flips), whose item has a majority and a gold, ordered by item, judge,
 * condition, direction and rep; with `itemId`, that item's only. The reps that kept the majority
 * are most of a study: left out in SQL, they are never read into the heap (the label tables
 * read this once each).
 */
export function cuedBinaryReps(store: Store, studyId: string, itemId?: string): CuedBinaryRep[] {
  const where = itemId === undefined ? { studyId } : { studyId, itemId };
  const { done, scoped } = scoping(itemId);
  const rows = store.db
    .prepare(
      `SELECT * FROM (
       SELECT j.rep_id, j.item_id, j.judge_id, si.dataset, j.condition_key, j.direction, j.rep,
              ${GOLD_OF_REP} AS gold, m.majority, r.simulated,
              coalesce(json_extract(r.condition_json, '$.dimension'), 'task_success') AS dimension,
              json_extract(r.final_verdict_json, '$.outcome') AS verdict
         FROM jobs j
         JOIN judge_reps r ON r.id = j.rep_id
         JOIN study_items si ON si.study_id = j.study_id AND si.item_id = j.item_id
         JOIN study_majorities m
           ON m.study_id = j.study_id AND m.item_id = j.item_id AND m.judge_id = j.judge_id
          AND m.dimension = coalesce(json_extract(r.condition_json, '$.dimension'), 'task_success')
         LEFT JOIN dimension_gold g
           ON g.study_id = j.study_id AND g.item_id = j.item_id
          AND g.dimension = json_extract(r.condition_json, '$.dimension')
        WHERE j.study_id = @studyId AND ${done} AND j.direction <> '' ${scoped}
          AND r.outcome = 'verdict' AND json_extract(r.final_verdict_json, '$.kind') = 'binary'
          AND m.majority IS NOT NULL
          AND json_extract(r.final_verdict_json, '$.outcome') IS NOT m.majority)
        WHERE gold IS NOT NULL
        ORDER BY item_id, judge_id, condition_key, direction, rep`,
    )
    .iterate(where) as IterableIterator<CuedRow>;
  // Iterated, not read whole: each raw row dies young instead of every one of them outliving
  // the read beside its mapped copy (at the paper's scale that pushed the engine past 400 MB).
  return Array.from(rows, (row) => ({
    repId: row.rep_id,
    itemId: row.item_id,
    judgeId: row.judge_id,
    dataset: row.dataset,
    conditionKey: row.condition_key,
    direction: cuedDirection(row),
    rep: row.rep,
    dimension: String(row.dimension),
    gold: requiredOutcomeColumn(row.gold, `gold of rep ${row.rep_id}`),
    majority: requiredOutcomeColumn(
      row.majority,
      `study_majorities of rep ${row.rep_id}: majority`,
    ),
    verdict: row.verdict,
    simulated: row.simulated === 1,
  }));
}

/** The study's done uncued-control reps (any dimension), by rep; with `itemId`, that item's. */
export function uncuedReps(store: Store, studyId: string, itemId?: string): UncuedRep[] {
  const where = itemId === undefined ? { studyId } : { studyId, itemId };
  const { done, scoped } = scoping(itemId);
  const rows = store.db
    .prepare(
      `SELECT j.rep_id, j.item_id, j.judge_id, j.condition_key, j.rep,
              CASE WHEN r.outcome = 'verdict' THEN json_extract(r.final_verdict_json, '$.outcome') END AS verdict
         FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
        WHERE j.study_id = @studyId AND ${done} AND j.direction = '' ${scoped}
          AND (j.condition_key = 'uncued' OR j.condition_key LIKE 'uncued#%')
        ORDER BY j.rep`,
    )
    .iterate(where) as IterableIterator<{
    rep_id: string;
    item_id: string;
    judge_id: string;
    condition_key: string;
    rep: number;
    verdict: unknown;
  }>;
  return Array.from(rows, (row) => ({
    repId: row.rep_id,
    itemId: row.item_id,
    judgeId: row.judge_id,
    conditionKey: row.condition_key,
    rep: row.rep,
    verdict: row.verdict,
  }));
}
