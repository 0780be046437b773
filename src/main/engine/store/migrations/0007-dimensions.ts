import type { Migration } from './types';

/**
 * Several dimensions in one study (App. G, Fig. 17): an uncued majority per item, judge and
 * dimension, so study_majorities gains `dimension` in its key (rebuilt: SQLite cannot change a
 * primary key in place; rows keep their study's own dimension).
 *
 * Noisy gold per item and dimension (App. G: "we treat the trajectory-aware meta-judge ensemble
 * as a noisy ground truth"): for a binary dimension other than task success, the meta-judge
 * ensemble's consensus on the item's uncued evidence. `gold` is null when the voters reached no
 * decision (a split with no valid tie-breaker answer); `details_json` keeps every voter's answer
 * and provider options, so the gold can be audited and re-derived.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'dimensions',
  sql: `
    CREATE TABLE study_majorities_by_dimension (
      study_id TEXT NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
      item_id TEXT NOT NULL,
      judge_id TEXT NOT NULL,
      dimension TEXT NOT NULL DEFAULT 'task_success',
      majority TEXT,
      mean_score REAL,
      valid_reps INTEGER NOT NULL,
      note TEXT,
      PRIMARY KEY (study_id, item_id, judge_id, dimension)
    ) STRICT;
    INSERT INTO study_majorities_by_dimension
      (study_id, item_id, judge_id, dimension, majority, mean_score, valid_reps, note)
      SELECT m.study_id, m.item_id, m.judge_id,
             coalesce(CASE WHEN json_valid(s.spec_json)
                        THEN json_extract(s.spec_json, '$.dimension') END, 'task_success'),
             m.majority, m.mean_score, m.valid_reps, m.note
        FROM study_majorities m JOIN studies s ON s.id = m.study_id;
    DROP TABLE study_majorities;
    ALTER TABLE study_majorities_by_dimension RENAME TO study_majorities;

    CREATE TABLE dimension_gold (
      study_id TEXT NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
      item_id TEXT NOT NULL,
      dimension TEXT NOT NULL,
      gold TEXT CHECK (gold IN ('pass', 'fail')),
      source TEXT NOT NULL,
      decided_by TEXT NOT NULL CHECK (decided_by IN ('majority', 'tie-breaker', 'none')),
      evidence_reps INTEGER NOT NULL,
      details_json TEXT NOT NULL DEFAULT '{}',
      created_at TEXT NOT NULL,
      PRIMARY KEY (study_id, item_id, dimension)
    ) STRICT;
  `,
};
