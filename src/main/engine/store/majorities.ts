/**
 * The SQL of paired scheduling (runner/scheduling.ts, §3.1): an item's uncued jobs and their
 * reps' outcomes, its fixed majority per judge and dimension (study_majorities), and the
 * uncued groups whose majority was never fixed (a runner died in between).
 */
import { z } from 'zod';
import { statement, type Store } from './database';
import { parseJsonColumn } from './json-column';

/** What scheduling reads of a final verdict: its kind, and the pass/fail or score it carries. */
const verdictReadSchema = z.looseObject({
  kind: z.string(),
  outcome: z.enum(['pass', 'fail']).optional(),
  score: z.number().optional(),
});

/** One uncued job of an item and judge, with its rep's outcome when it has one. */
export interface UncuedJobOutcome {
  state: string;
  outcome: string | null;
  /** The rep's final verdict, checked; null without a rep or a verdict. */
  verdict: z.output<typeof verdictReadSchema> | null;
}

/** Every job of one (item, judge, control condition), with its rep's outcome. */
export function readUncuedJobOutcomes(
  store: Store,
  studyId: string,
  itemId: string,
  judgeId: string,
  controlKey: string,
): UncuedJobOutcome[] {
  return statement<
    [string, string, string, string],
    {
      state: string;
      outcome: string | null;
      rep_id: string | null;
      final_verdict_json: string | null;
    }
  >(
    store,
    `SELECT j.state, r.outcome, r.id AS rep_id, r.final_verdict_json FROM jobs j LEFT JOIN judge_reps r ON r.id = j.rep_id
        WHERE j.study_id = ? AND j.item_id = ? AND j.judge_id = ? AND j.condition_key = ?`,
  )
    .all(studyId, itemId, judgeId, controlKey)
    .map((row) => ({
      state: row.state,
      outcome: row.outcome,
      verdict: row.final_verdict_json
        ? parseJsonColumn(verdictReadSchema, row.final_verdict_json, {
            table: 'judge_reps',
            row: row.rep_id ?? '?',
            field: 'final_verdict_json',
          })
        : null,
    }));
}

/** True when the item's majority for this judge and dimension is already fixed. */
export function hasMajority(
  store: Store,
  studyId: string,
  itemId: string,
  judgeId: string,
  dimension: string,
): boolean {
  return (
    statement(
      store,
      `SELECT 1 FROM study_majorities
          WHERE study_id = ? AND item_id = ? AND judge_id = ? AND dimension = ?`,
    ).get(studyId, itemId, judgeId, dimension) !== undefined
  );
}

/** A fixed uncued majority (or why there is none: `note`). */
export interface MajorityRecord {
  studyId: string;
  itemId: string;
  judgeId: string;
  dimension: string;
  majority: 'pass' | 'fail' | null;
  meanScore: number | null;
  validReps: number;
  note: string | null;
}

/** Stores a fixed majority. */
export function insertMajority(store: Store, record: MajorityRecord): void {
  statement(
    store,
    `INSERT INTO study_majorities
         (study_id, item_id, judge_id, dimension, majority, mean_score, valid_reps, note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    record.studyId,
    record.itemId,
    record.judgeId,
    record.dimension,
    record.majority,
    record.meanScore,
    record.validReps,
    record.note,
  );
}
