import type { Migration } from './types';

/**
 * Mechanism labels (§3.3, App. F, N, P): one label per flipped rep and source. Sources are the
 * deterministic trajectory diff (`diff`), each meta-judge voter (`voter:<id>`), the ensemble's
 * majority (`ensemble`), a human annotator (`human:<name>`) and, for synthetic-judge reps, the
 * simulation's true mechanism (`truth`). Re-labelling a rep from the same source replaces it.
 */
export const migration0004: Migration = {
  version: 4,
  name: 'labels',
  sql: `
    CREATE TABLE annotators (
      name TEXT PRIMARY KEY,
      created_at TEXT NOT NULL
    ) STRICT;

    CREATE TABLE mechanism_labels (
      rep_id TEXT NOT NULL REFERENCES judge_reps(id) ON DELETE CASCADE,
      source TEXT NOT NULL CHECK (
        source IN ('diff', 'ensemble', 'truth')
        OR (source LIKE 'voter:_%')
        OR (source LIKE 'human:_%')
      ),
      label TEXT NOT NULL CHECK (label IN ('over_trust', 'hallucination', 'under_investigation',
        'better_investigation', 'lucky_deference', 'evidence_reweighting', 'invalid', 'none')),
      sub_mode TEXT,
      rationale TEXT NOT NULL DEFAULT '',
      details_json TEXT NOT NULL DEFAULT '{}',
      created_at TEXT NOT NULL,
      PRIMARY KEY (rep_id, source)
    ) STRICT;
    CREATE INDEX mechanism_labels_by_source ON mechanism_labels (source);
  `,
};
