/**
 * The SQL behind a report's study header and an imported study's analysis rows (reports/rows.ts
 * maps them; a native study's rows come from analysis-rows.ts).
 */
import type { Store } from './database';

/** A study's name, origin, status and synthetic mark, as stored. */
export interface StudyHeaderRecord {
  id: string;
  name: string;
  origin: 'native' | 'imported';
  status: string;
  simulated: number;
}

/** Native studies and their status, the most recently updated first (the warm pass's order). */
export function nativeStudiesByUpdate(store: Store): { id: string; status: string }[] {
  return store.db
    .prepare<[], { id: string; status: string }>(
      `SELECT id, status FROM studies WHERE origin = 'native' ORDER BY updated_at DESC, id DESC`,
    )
    .all();
}

/** The study's header row; undefined when there is no such study. */
export function readStudyHeader(store: Store, studyId: string): StudyHeaderRecord | undefined {
  return store.db
    .prepare<[string], StudyHeaderRecord>(
      'SELECT id, name, origin, status, simulated FROM studies WHERE id = ?',
    )
    .get(studyId);
}

/** One imported rep with the optional columns its extra_json carries (still untyped). */
export interface ImportedAnalysisRecord {
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

/** Every imported rep of a study, in file order. */
export function readImportedAnalysisRecords(
  store: Store,
  studyId: string,
): ImportedAnalysisRecord[] {
  return store.db
    .prepare<[string], ImportedAnalysisRecord>(
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
    .all(studyId);
}
