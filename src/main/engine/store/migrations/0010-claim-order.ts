import type { Migration } from './types';

/**
 * The claim order as an index: queued jobs by (uncued first, id), so a claim reads the next job
 * off the index instead of sorting every runnable job (store/jobs.ts `claimJob`; 45 ms a claim
 * with the paper-scale bench's 70,560 queued, 0.01 ms with this index).
 */
export const migration0010: Migration = {
  version: 10,
  name: 'claim-order',
  sql: `
    CREATE INDEX jobs_claim_order ON jobs (state, (direction <> ''), id);
  `,
};
