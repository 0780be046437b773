/**
 * The consensus gold of a study's dimensions other than task success, binary and graded alike
 * (App. G, `dimension_gold`, migration 6): the uncued evidence the meta-judge ensemble reads,
 * and the gold it decided (metajudge/consensus/study-gold.ts).
 */
import type { Outcome } from '../mechanism-labels';
import type { Store } from './database';
import { outcomeColumn } from './json-column';

/** One uncued rep with a valid verdict (pass/fail or a score): evidence for its item's gold. */
export interface UncuedJudgedRep {
  itemId: string;
  suiteId: string;
  repId: string;
  /** The dimension the rep judged; null when its condition names none. */
  dimension: string | null;
}

/**
 * The study's uncued reps with a valid verdict, by item position, condition, judge and rep. A
 * graded rep is evidence too: App. G's noisy gold covers the graded dimensions as well.
 */
export function uncuedJudgedReps(store: Store, studyId: string): UncuedJudgedRep[] {
  const rows = store.db
    .prepare(
      `SELECT j.item_id, r.suite_id, r.id AS rep_id,
              json_extract(r.condition_json, '$.dimension') AS dimension
         FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
         JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id
        WHERE j.study_id = ? AND j.state = 'done' AND j.direction = ''
          AND (j.condition_key = 'uncued' OR j.condition_key LIKE 'uncued#%')
          AND r.outcome = 'verdict'
          AND json_extract(r.final_verdict_json, '$.kind') IN ('binary', 'graded')
        ORDER BY i.position, j.condition_key, j.judge_id, j.rep`,
    )
    .all(studyId) as { item_id: string; suite_id: string; rep_id: string; dimension: unknown }[];
  return rows.map((row) => ({
    itemId: row.item_id,
    suiteId: row.suite_id,
    repId: row.rep_id,
    dimension: typeof row.dimension === 'string' ? row.dimension : null,
  }));
}

/** A stored gold: pass, fail, or null when the ensemble could not decide. */
export interface StoredDimensionGold {
  itemId: string;
  dimension: string;
  gold: Outcome | null;
}

/** The study's stored consensus gold, every item and dimension. */
export function readDimensionGold(store: Store, studyId: string): StoredDimensionGold[] {
  const rows = store.db
    .prepare('SELECT item_id, dimension, gold FROM dimension_gold WHERE study_id = ?')
    .all(studyId) as { item_id: string; dimension: string; gold: unknown }[];
  return rows.map((row) => ({
    itemId: row.item_id,
    dimension: row.dimension,
    gold: outcomeColumn(
      row.gold,
      `dimension_gold row ${studyId}/${row.item_id}/${row.dimension}: gold`,
    ),
  }));
}

/** A decided (or undecidable) gold to store. */
export interface DimensionGoldRecord {
  studyId: string;
  itemId: string;
  dimension: string;
  gold: Outcome | null;
  /** Who decided it, e.g. `meta-judge consensus`. */
  source: string;
  decidedBy: string;
  evidenceReps: number;
  /** Tally, votes and prompt version, kept for audit. */
  details: unknown;
}

/** Stores a gold, replacing an earlier one of the same item and dimension. */
export function saveDimensionGold(store: Store, record: DimensionGoldRecord): void {
  store.db
    .prepare(
      `INSERT INTO dimension_gold
         (study_id, item_id, dimension, gold, source, decided_by, evidence_reps, details_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (study_id, item_id, dimension) DO UPDATE SET
         gold = excluded.gold, source = excluded.source, decided_by = excluded.decided_by,
         evidence_reps = excluded.evidence_reps, details_json = excluded.details_json,
         created_at = excluded.created_at`,
    )
    .run(
      record.studyId,
      record.itemId,
      record.dimension,
      record.gold,
      record.source,
      record.decidedBy,
      record.evidenceReps,
      JSON.stringify(record.details),
      new Date().toISOString(),
    );
}
