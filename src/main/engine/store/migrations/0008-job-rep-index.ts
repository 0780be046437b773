import type { Migration } from './types';

/**
 * jobs(rep_id): a stored rep finds its job with one index seek. Without it, the report cache's
 * read of a landed batch (store/analysis-rows.ts), the replay's "which study is this rep in"
 * and the flip finder (metajudge/flipped.ts) went through the study-wide indexes or a scan of
 * the study's jobs (70,560 jobs in the paper-scale bench workspace).
 */
export const migration0008: Migration = {
  version: 8,
  name: 'job-rep-index',
  sql: `
    CREATE INDEX jobs_by_rep ON jobs (rep_id);
  `,
};
