import type { Migration } from './types';

/**
 * The durable runner (ARCHITECTURE.md, `runner`): a study's items and conditions, one job per
 * (study, condition, item, judge, rep, direction), and every completed provider call, so a
 * restarted engine resumes a rep without repeating a call it already paid for.
 */
export const migration0003: Migration = {
  version: 3,
  name: 'runner',
  sql: `
    ALTER TABLE studies ADD COLUMN paused_reason TEXT;
    ALTER TABLE studies ADD COLUMN origin TEXT NOT NULL DEFAULT 'native' CHECK (origin IN ('native', 'imported'));

    CREATE TABLE study_items (
      study_id TEXT NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
      item_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      dataset TEXT NOT NULL,
      gold TEXT CHECK (gold IN ('pass', 'fail')),
      PRIMARY KEY (study_id, item_id)
    ) STRICT;

    CREATE TABLE study_conditions (
      study_id TEXT NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      position INTEGER NOT NULL,
      label TEXT NOT NULL,
      body_json TEXT NOT NULL,
      PRIMARY KEY (study_id, key)
    ) STRICT;

    -- The uncued majority of one item for one judge, once its uncued reps are done.
    CREATE TABLE study_majorities (
      study_id TEXT NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
      item_id TEXT NOT NULL,
      judge_id TEXT NOT NULL,
      majority TEXT,
      mean_score REAL,
      valid_reps INTEGER NOT NULL,
      note TEXT,
      PRIMARY KEY (study_id, item_id, judge_id)
    ) STRICT;

    CREATE TABLE jobs (
      id INTEGER PRIMARY KEY,
      study_id TEXT NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
      condition_key TEXT NOT NULL,
      item_id TEXT NOT NULL,
      judge_id TEXT NOT NULL,
      rep INTEGER NOT NULL,
      -- '' for the uncued control, else 'severity' or 'leniency'.
      direction TEXT NOT NULL CHECK (direction IN ('', 'severity', 'leniency')),
      state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
      attempts INTEGER NOT NULL DEFAULT 0,
      lease_id TEXT,
      lease_owner INTEGER,
      lease_expires_at INTEGER,
      next_run_at INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      rep_id TEXT REFERENCES judge_reps(id),
      duration_ms INTEGER,
      created_at TEXT NOT NULL,
      finished_at TEXT,
      UNIQUE (study_id, condition_key, item_id, judge_id, rep, direction)
    ) STRICT;
    CREATE INDEX jobs_runnable ON jobs (state, next_run_at);
    CREATE INDEX jobs_by_study ON jobs (study_id, state);

    -- Per-rep verdict records imported from another harness (cuelab import-results).
    CREATE TABLE imported_reps (
      study_id TEXT NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
      line INTEGER NOT NULL,
      item_id TEXT NOT NULL,
      dataset TEXT NOT NULL,
      judge TEXT NOT NULL,
      condition TEXT NOT NULL,
      cue_direction TEXT CHECK (cue_direction IN ('severity', 'leniency')),
      rep INTEGER NOT NULL,
      verdict TEXT CHECK (verdict IN ('pass', 'fail')),
      score REAL,
      gold TEXT CHECK (gold IN ('pass', 'fail')),
      dimension TEXT NOT NULL,
      turns INTEGER,
      extra_json TEXT NOT NULL DEFAULT '{}',
      PRIMARY KEY (study_id, line)
    ) STRICT;

    CREATE TABLE provider_calls (
      job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      request_hash TEXT NOT NULL,
      response_json TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      temperature_sent INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (job_id, seq)
    ) STRICT;
  `,
};
