import type { Migration } from './types';

/**
 * What the live web backend fetched for a rep (search answers and pages), stored with the rep
 * so that its replay serves the same web offline.
 */
export const migration0006: Migration = {
  version: 6,
  name: 'web-recordings',
  sql: `
    CREATE TABLE judge_rep_web (
      rep_id TEXT PRIMARY KEY REFERENCES judge_reps(id) ON DELETE CASCADE,
      recording_json TEXT NOT NULL
    ) STRICT;
  `,
};
