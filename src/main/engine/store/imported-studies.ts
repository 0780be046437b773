/**
 * Imported results (reports/import.ts): a completed study of origin `imported` whose reps are
 * the validated records of a results file, one `imported_reps` row each, written in one
 * transaction so a file imports whole or not at all.
 */
import type { Store } from './database';

/** One validated record of a results file (reports/results-parse.ts ImportedRep). */
export interface ImportedRepRow {
  line: number;
  itemId: string;
  dataset: string;
  judge: string;
  condition: string;
  cueDirection: string | null;
  rep: number;
  verdict: string | null;
  score: number | null;
  gold: string | null;
  dimension: string;
  turns: number | null;
  extra: Record<string, unknown>;
}

/** An imported study to store. */
export interface ImportedStudy {
  id: string;
  name: string;
  /** What was imported from where (kept as the study's spec). */
  spec: unknown;
  simulated: boolean;
  /** ISO time stamped as both created and updated. */
  now: string;
  reps: readonly ImportedRepRow[];
}

/** Stores an imported study and its reps in one transaction. */
export function saveImportedStudy(store: Store, study: ImportedStudy): void {
  const db = store.db;
  db.transaction(() => {
    db.prepare(
      `INSERT INTO studies (id, name, status, spec_json, simulated, origin, created_at, updated_at)
       VALUES (?, ?, 'completed', ?, ?, 'imported', ?, ?)`,
    ).run(
      study.id,
      study.name,
      JSON.stringify(study.spec),
      study.simulated ? 1 : 0,
      study.now,
      study.now,
    );
    const insert = db.prepare(
      `INSERT INTO imported_reps (study_id, line, item_id, dataset, judge, condition, cue_direction,
         rep, verdict, score, gold, dimension, turns, extra_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const rep of study.reps) {
      insert.run(
        study.id,
        rep.line,
        rep.itemId,
        rep.dataset,
        rep.judge,
        rep.condition,
        rep.cueDirection,
        rep.rep,
        rep.verdict,
        rep.score,
        rep.gold,
        rep.dimension,
        rep.turns,
        JSON.stringify(rep.extra),
      );
    }
  })();
}
