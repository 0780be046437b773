import type { Migration } from './types';

/** Suites with their items, and studies. Later issues add runs, transcripts and labels. */
export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  sql: `
    CREATE TABLE suites (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      origin TEXT NOT NULL CHECK (origin IN ('builtin', 'imported')),
      created_at TEXT NOT NULL
    ) STRICT;

    CREATE TABLE suite_items (
      suite_id TEXT NOT NULL REFERENCES suites(id) ON DELETE CASCADE,
      item_id TEXT NOT NULL,
      body_json TEXT NOT NULL,
      PRIMARY KEY (suite_id, item_id)
    ) STRICT;

    CREATE TABLE studies (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN
        ('draft', 'queued', 'running', 'paused', 'cancelled', 'completed', 'failed')),
      spec_json TEXT NOT NULL,
      simulated INTEGER NOT NULL DEFAULT 0 CHECK (simulated IN (0, 1)),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT;

    CREATE INDEX studies_by_created ON studies (created_at DESC);
  `,
};
