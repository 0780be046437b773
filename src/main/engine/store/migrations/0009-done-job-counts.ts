import type { Migration } from './types';

/**
 * Each study's count of done jobs, kept by triggers as jobs change state. The report cache asks
 * it before every refresh to tell "reps landed" from "a job left done" (store/analysis-rows.ts
 * `doneJobCount`); counting the study's index range instead cost a step per job, 8 ms at the
 * paper-scale bench's 70,560 (a live refresh costs the batch, not the study).
 */
export const migration0009: Migration = {
  version: 9,
  name: 'done-job-counts',
  sql: `
    CREATE TABLE study_done_jobs (
      study_id TEXT PRIMARY KEY REFERENCES studies(id) ON DELETE CASCADE,
      done INTEGER NOT NULL
    ) STRICT;
    INSERT INTO study_done_jobs (study_id, done)
      SELECT study_id, count(*) FROM jobs WHERE state = 'done' GROUP BY study_id;

    CREATE TRIGGER jobs_done_insert AFTER INSERT ON jobs WHEN NEW.state = 'done'
    BEGIN
      INSERT INTO study_done_jobs (study_id, done) VALUES (NEW.study_id, 1)
        ON CONFLICT (study_id) DO UPDATE SET done = done + 1;
    END;
    CREATE TRIGGER jobs_done_update AFTER UPDATE OF state, study_id ON jobs
      WHEN (OLD.state = 'done') <> (NEW.state = 'done') OR (NEW.state = 'done' AND OLD.study_id <> NEW.study_id)
    BEGIN
      UPDATE study_done_jobs SET done = done - 1 WHERE OLD.state = 'done' AND study_id = OLD.study_id;
      INSERT INTO study_done_jobs (study_id, done) SELECT NEW.study_id, 1 WHERE NEW.state = 'done'
        ON CONFLICT (study_id) DO UPDATE SET done = done + 1;
    END;
    CREATE TRIGGER jobs_done_delete AFTER DELETE ON jobs WHEN OLD.state = 'done'
    BEGIN
      UPDATE study_done_jobs SET done = done - 1 WHERE study_id = OLD.study_id;
    END;
  `,
};
