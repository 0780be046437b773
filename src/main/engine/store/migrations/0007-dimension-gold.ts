import type { Migration } from './types';

/**
 * Noisy gold per item and dimension (App. G: "we treat the trajectory-aware meta-judge ensemble
 * as a noisy ground truth"): for a binary dimension other than task success, the meta-judge
 * ensemble's consensus on the item's uncued evidence. `gold` is null when the voters reached no
 * decision (a split with no valid tie-breaker answer); `details_json` keeps every voter's answer
 * and provider options, so the gold can be audited and re-derived.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'dimension-gold',
  sql: `
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
