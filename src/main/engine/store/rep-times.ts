/**
 * What a study's pace is read from: when its recent reps ran, and which (item, judge,
 * dimension) majorities are fixed (their cued reps are queued; the others are still to come).
 */
import { statement, type Store } from './database';

/** One finished rep: when it ended and how long it ran. */
export interface FinishedRepTime {
  finishedAtMs: number;
  durationMs: number;
}

/** The `limit` most recently finished reps of a study, newest first. */
export function recentRepTimes(store: Store, studyId: string, limit: number): FinishedRepTime[] {
  const rows = statement(
    store,
    `SELECT finished_at, duration_ms FROM jobs
        WHERE study_id = ? AND state = 'done' AND finished_at IS NOT NULL AND duration_ms IS NOT NULL
        ORDER BY finished_at DESC LIMIT ?`,
  ).all(studyId, limit) as { finished_at: string; duration_ms: number }[];
  return rows
    .map((row) => ({ finishedAtMs: Date.parse(row.finished_at), durationMs: row.duration_ms }))
    .filter((row) => Number.isFinite(row.finishedAtMs) && row.durationMs >= 0);
}

/** "item\u0000judge\u0000dimension" for every majority already fixed in a study. */
export function fixedMajorityKeys(store: Store, studyId: string): Set<string> {
  const rows = statement(
    store,
    'SELECT item_id, judge_id, dimension FROM study_majorities WHERE study_id = ?',
  ).all(studyId) as { item_id: string; judge_id: string; dimension: string }[];
  return new Set(rows.map((row) => majorityKey(row.item_id, row.judge_id, row.dimension)));
}

/** The key `fixedMajorityKeys` uses for one (item, judge, dimension). */
export function majorityKey(itemId: string, judgeId: string, dimension: string): string {
  return `${itemId}\u0000${judgeId}\u0000${dimension}`;
}
