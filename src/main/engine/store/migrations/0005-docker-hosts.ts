import type { Migration } from './types';

/**
 * Docker engines besides the workstation's own that run judge containers. The workstation's
 * engine (`local`) is implicit; a row with id `local` only overrides its container limit.
 */
export const migration0005: Migration = {
  version: 5,
  name: 'docker-hosts',
  sql: `
    CREATE TABLE docker_hosts (
      id TEXT PRIMARY KEY,
      config_json TEXT NOT NULL,
      added_at TEXT NOT NULL
    ) STRICT;
  `,
};
