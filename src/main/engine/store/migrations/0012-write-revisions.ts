import type { Migration } from './types';

/**
 * Revision counters, moved by triggers on every write to what the persisted report tables are
 * built from (reports/persisted-tables.ts keys them by it): the mechanism labels (one counter,
 * as the label tables' key covers the whole table), and per study its done jobs and their reps
 * (`rows:`), its derived gold (`gold:`) and its fixed majorities (`majorities:`). Counts, newest
 * rowids and times miss a row replaced in place within one millisecond; a counter cannot.
 */
export const migration0012: Migration = {
  version: 12,
  name: 'write-revisions',
  sql: `
    CREATE TABLE write_revisions (
      scope TEXT PRIMARY KEY,
      revision INTEGER NOT NULL
    ) STRICT;
${['INSERT', 'UPDATE', 'DELETE']
  .map(
    (event) => `
    CREATE TRIGGER mechanism_labels_revision_${event.toLowerCase()} AFTER ${event} ON mechanism_labels
    BEGIN
      ${bump("'labels'")}
    END;`,
  )
  .join('')}
${studyTriggers('dimension_gold', 'gold')}
${studyTriggers('study_majorities', 'majorities')}
    CREATE TRIGGER jobs_rows_revision_insert AFTER INSERT ON jobs WHEN NEW.state = 'done'
    BEGIN
      ${bump("'rows:' || NEW.study_id")}
    END;
    CREATE TRIGGER jobs_rows_revision_update AFTER UPDATE OF state, rep_id, study_id ON jobs
      WHEN OLD.state = 'done' OR NEW.state = 'done'
    BEGIN
      ${bump("'rows:' || OLD.study_id")}
      ${bump("'rows:' || NEW.study_id")}
    END;
    CREATE TRIGGER jobs_rows_revision_delete AFTER DELETE ON jobs WHEN OLD.state = 'done'
    BEGIN
      ${bump("'rows:' || OLD.study_id")}
    END;
    CREATE TRIGGER judge_reps_rows_revision_update AFTER UPDATE ON judge_reps
    BEGIN
      ${bump("'rows:' || NEW.study_id")}
    END;
    CREATE TRIGGER judge_reps_rows_revision_delete AFTER DELETE ON judge_reps
    BEGIN
      ${bump("'rows:' || OLD.study_id")}
    END;
  `,
};

function bump(scope: string): string {
  return `INSERT INTO write_revisions (scope, revision) VALUES (${scope}, 1)
        ON CONFLICT (scope) DO UPDATE SET revision = revision + 1;`;
}

/** Triggers moving `prefix:<study>` on every write to a table with a study_id column. */
function studyTriggers(table: string, prefix: string): string {
  return `
    CREATE TRIGGER ${table}_revision_insert AFTER INSERT ON ${table}
    BEGIN
      ${bump(`'${prefix}:' || NEW.study_id`)}
    END;
    CREATE TRIGGER ${table}_revision_update AFTER UPDATE ON ${table}
    BEGIN
      ${bump(`'${prefix}:' || OLD.study_id`)}
      ${bump(`'${prefix}:' || NEW.study_id`)}
    END;
    CREATE TRIGGER ${table}_revision_delete AFTER DELETE ON ${table}
    BEGIN
      ${bump(`'${prefix}:' || OLD.study_id`)}
    END;`;
}
