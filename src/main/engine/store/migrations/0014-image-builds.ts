import type { Migration } from './types';

/**
 * Item image builds measured on this machine: one row per item environment (its id and a hash
 * of its spec), with the substrate and how long the snapshot took to build. The estimate counts
 * the items of a study with no row as builds still to come, at this machine's median per
 * substrate (runner/estimate.ts).
 */
export const migration0014: Migration = {
  version: 14,
  name: 'image-builds',
  sql: `
    CREATE TABLE image_builds (
      item_id TEXT NOT NULL,
      environment_hash TEXT NOT NULL,
      substrate TEXT NOT NULL,
      seconds REAL NOT NULL,
      built_at TEXT NOT NULL,
      PRIMARY KEY (item_id, environment_hash)
    ) STRICT;
  `,
};
