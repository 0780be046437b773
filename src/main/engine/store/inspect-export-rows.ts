/** What the Inspect export reads beyond a rep's own row: its job's judge and rep number. */
import type { Store } from './database';

/** A rep's judge (the study spec's judge id) and rep number (1-based) from its job. */
export interface RepJob {
  judgeId: string;
  rep: number;
}

/** The judge and rep number of every rep of a study that a job produced, by rep id. */
export function studyRepJobs(store: Store, studyId: string): Map<string, RepJob> {
  const rows = store.db
    .prepare<[string], { rep_id: string; judge_id: string; rep: number }>(
      'SELECT rep_id, judge_id, rep FROM jobs WHERE study_id = ? AND rep_id IS NOT NULL',
    )
    .all(studyId);
  return new Map(rows.map((row) => [row.rep_id, { judgeId: row.judge_id, rep: row.rep }]));
}

/** How many of a study's jobs are in each state (queued, running, done, failed, cancelled). */
export function studyJobStates(store: Store, studyId: string): Record<string, number> {
  const rows = store.db
    .prepare<[string], { state: string; n: number }>(
      'SELECT state, count(*) AS n FROM jobs WHERE study_id = ? GROUP BY state',
    )
    .all(studyId);
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}
