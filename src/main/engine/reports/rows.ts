/**
 * A study's reps as analysis rows (analysis/types.ts `JudgeRepRow`), the one input of every
 * table: native studies from their finished jobs and stored reps, imported studies from their
 * imported records. One query per study (plus its conditions), so the paper's scale (70,000
 * reps, App. R) reads in one pass.
 */
import type { JudgeRepRow } from '../analysis';
import { EngineError } from '../errors';
import type { StudyCondition } from '../../../shared/condition-keys';
import type { Store } from '../store';
import { cachedImportedRows, cachedNativeRows } from './row-cache';
import {
  describe,
  directionOf,
  nativeAnalysisRow,
  numberOf,
  textOf,
  verdictOf,
  withTaxonomySizes,
  type ConditionFields,
  type NativeRow,
} from './row-mapping';

/** What a report needs to know about the study itself. */
export interface StudyHeader {
  readonly id: string;
  readonly name: string;
  readonly origin: 'native' | 'imported';
  readonly status: string;
  readonly simulated: boolean;
}

/** The study's name, origin and status; throws not_found. */
export function studyHeader(store: Store, studyId: string): StudyHeader {
  const row = store.db
    .prepare('SELECT id, name, origin, status, simulated FROM studies WHERE id = ?')
    .get(studyId) as
    | { id: string; name: string; origin: 'native' | 'imported'; status: string; simulated: number }
    | undefined;
  if (!row) throw new EngineError('not_found', `There is no study "${studyId}".`);
  return { ...row, simulated: row.simulated === 1 };
}

/**
 * Every finished rep of a study as analysis rows, kept per open workspace and brought up to
 * date with the reps landed since the last call (row-cache.ts); equal to `readStudyRows`.
 */
export function studyRows(store: Store, studyId: string): JudgeRepRow[] {
  const header = studyHeader(store, studyId);
  return header.origin === 'imported'
    ? cachedImportedRows(store, studyId, () => importedRows(store, studyId))
    : cachedNativeRows(store, studyId);
}

/** Every finished rep of a study as analysis rows, read in full (no cache). */
export function readStudyRows(store: Store, studyId: string): JudgeRepRow[] {
  const header = studyHeader(store, studyId);
  return header.origin === 'imported' ? importedRows(store, studyId) : nativeRows(store, studyId);
}

function nativeRows(store: Store, studyId: string): JudgeRepRow[] {
  const conditions = new Map<string, ConditionFields>(
    (
      store.db
        .prepare('SELECT key, body_json FROM study_conditions WHERE study_id = ?')
        .all(studyId) as { key: string; body_json: string }[]
    ).map((row) => [row.key, describe(JSON.parse(row.body_json) as StudyCondition)]),
  );
  const rows = store.db
    .prepare(
      `SELECT j.item_id, i.dataset, j.judge_id, j.condition_key, j.direction, j.rep, i.gold,
              g.gold AS consensus_gold,
              r.outcome, r.simulated, r.turns,
              json_extract(r.condition_json, '$.dimension') AS dimension,
              json_extract(r.final_verdict_json, '$.kind') AS kind,
              json_extract(r.final_verdict_json, '$.outcome') AS verdict,
              json_extract(r.final_verdict_json, '$.score') AS score,
              json_array_length(r.final_verdict_json, '$.present') AS present,
              json_array_length(r.final_verdict_json, '$.absent') AS absent
         FROM jobs j
         JOIN judge_reps r ON r.id = j.rep_id
         JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id
         JOIN study_conditions c ON c.study_id = j.study_id AND c.key = j.condition_key
         LEFT JOIN dimension_gold g
           ON g.study_id = j.study_id AND g.item_id = j.item_id
          AND g.dimension = json_extract(r.condition_json, '$.dimension')
        WHERE j.study_id = ? AND j.state = 'done'
        ORDER BY i.position, j.judge_id, c.position, j.direction, j.rep`,
    )
    .all(studyId) as NativeRow[];
  return withTaxonomySizes(rows.map((row) => nativeAnalysisRow(row, conditions)));
}

interface ImportedRow {
  item_id: string;
  dataset: string;
  judge: string;
  condition: string;
  cue_direction: string | null;
  rep: number;
  verdict: string | null;
  score: number | null;
  gold: string | null;
  dimension: string;
  turns: number | null;
  simulated: number | null;
  placement: unknown;
  mitigation: unknown;
  cue_label: unknown;
  categories_present: unknown;
  taxonomy_size: unknown;
}

function importedRows(store: Store, studyId: string): JudgeRepRow[] {
  const rows = store.db
    .prepare(
      `SELECT item_id, dataset, judge, condition, cue_direction, rep, verdict, score, gold,
              dimension, turns,
              json_extract(extra_json, '$.simulated') AS simulated,
              json_extract(extra_json, '$.placement') AS placement,
              json_extract(extra_json, '$.mitigation') AS mitigation,
              json_extract(extra_json, '$.cue_label') AS cue_label,
              json_extract(extra_json, '$.categories_present') AS categories_present,
              json_extract(extra_json, '$.taxonomy_size') AS taxonomy_size
         FROM imported_reps WHERE study_id = ? ORDER BY line`,
    )
    .all(studyId) as ImportedRow[];
  return rows.map((row) => ({
    itemId: row.item_id,
    dataset: row.dataset,
    judge: row.judge,
    condition: row.condition,
    cueDirection: directionOf(row.cue_direction),
    rep: row.rep,
    verdict: verdictOf(row.verdict),
    score: numberOf(row.score),
    gold: verdictOf(row.gold),
    dimension: row.dimension,
    turns: numberOf(row.turns),
    simulated: row.simulated === 1,
    categoriesPresent: numberOf(row.categories_present),
    taxonomySize: numberOf(row.taxonomy_size),
    placement: textOf(row.placement),
    mitigation: textOf(row.mitigation),
    cueLabel: textOf(row.cue_label),
  }));
}
