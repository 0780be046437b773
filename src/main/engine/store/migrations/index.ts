import { migration0001 } from './0001-initial';
import { migration0002 } from './0002-judge-reps';
import { migration0003 } from './0003-runner';
import { migration0004 } from './0004-labels';
import { migration0005 } from './0005-docker-hosts';
import { migration0006 } from './0006-web-recordings';
import { migration0007 } from './0007-dimensions';
import { migration0008 } from './0008-job-rep-index';
import { migration0009 } from './0009-done-job-counts';
import { migration0010 } from './0010-claim-order';
import { migration0011 } from './0011-compact-texts';
import { migration0012 } from './0012-write-revisions';
import { migration0013 } from './0013-turn-reasoning';
import { migration0014 } from './0014-image-builds';
import { migration0015 } from './0015-search-index';
import type { Migration } from './types';

export type { Migration } from './types';

/** Every migration, in order. Add a file per version; never edit a shipped one. */
export const migrations: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
];
