/**
 * A study's lifecycle and progress, read from and written to SQLite. Pausing keeps every job;
 * cancelling cancels what has not run; a completed study has nothing queued or running.
 */
import type { StudyProgress } from '../../../shared/study-progress';
import { EngineError } from '../errors';
import { importedRepCount } from './analysis-rows';
import { statement, type Store } from './database';
import { promptCacheStats } from './prompt-cache-stats';

function setStatus(store: Store, studyId: string, status: string, reason: string | null): void {
  const result = statement(
    store,
    'UPDATE studies SET status = ?, paused_reason = ?, updated_at = ? WHERE id = ?',
  ).run(status, reason, new Date().toISOString(), studyId);
  if (result.changes === 0) throw new EngineError('not_found', `There is no study "${studyId}".`);
}

/** Status and pause reason of a study. */
export function studyStatus(
  store: Store,
  studyId: string,
): { status: string; pausedReason: string | null } {
  const row = statement(store, 'SELECT status, paused_reason FROM studies WHERE id = ?').get(
    studyId,
  ) as { status: string; paused_reason: string | null } | undefined;
  if (!row) throw new EngineError('not_found', `There is no study "${studyId}".`);
  return { status: row.status, pausedReason: row.paused_reason };
}

/** Pauses a running study; in-flight reps finish, nothing new starts. */
export function pauseStudy(
  store: Store,
  studyId: string,
  reason = 'paused by the researcher',
): void {
  setStatus(store, studyId, 'paused', reason);
}

/**
 * Pauses a study only while it runs, with `reason`; false when it was not running (paused by
 * the researcher, cancelled or done meanwhile: their reason is theirs and stays).
 */
export function pauseRunningStudy(store: Store, studyId: string, reason: string): boolean {
  const result = statement(
    store,
    `UPDATE studies SET status = 'paused', paused_reason = ?, updated_at = ?
      WHERE id = ? AND status = 'running'`,
  ).run(reason, new Date().toISOString(), studyId);
  return result.changes > 0;
}

/** Paused studies with their reasons (the runner resumes those paused for the machine). */
export function pausedStudies(store: Store): { id: string; reason: string | null }[] {
  return statement(
    store,
    `SELECT id, paused_reason AS reason FROM studies WHERE status = 'paused'`,
  ).all() as {
    id: string;
    reason: string | null;
  }[];
}

/** Resumes a study only if it is still paused with exactly `reason`; true when it did. */
export function resumeIfPausedFor(store: Store, studyId: string, reason: string): boolean {
  const result = statement(
    store,
    `UPDATE studies SET status = 'running', paused_reason = NULL, updated_at = ?
      WHERE id = ? AND status = 'paused' AND paused_reason = ?`,
  ).run(new Date().toISOString(), studyId, reason);
  return result.changes > 0;
}

/**
 * Resumes a paused (or failed) study. Done jobs whose rep is missing from the workspace (a
 * damaged or partly restored database) are queued to run again first; a completed study with
 * such jobs runs again for them, and one without any stays completed.
 */
export function resumeStudy(store: Store, studyId: string): void {
  store.db.transaction(() => {
    const { status } = studyStatus(store, studyId);
    if (status === 'cancelled') {
      throw new EngineError('bad_request', `Study ${studyId} is cancelled; it cannot be resumed.`);
    }
    const requeued = requeueMissingReps(store, studyId);
    if (status === 'completed' && requeued === 0) {
      throw new EngineError(
        'bad_request',
        `Study ${studyId} is completed, with every rep stored; there is nothing to resume.`,
      );
    }
    setStatus(store, studyId, 'running', null);
  })();
}

/** Queues again the study's done jobs whose rep is not in the workspace; how many. */
function requeueMissingReps(store: Store, studyId: string): number {
  return statement(
    store,
    `UPDATE jobs SET state = 'queued', rep_id = NULL, attempts = 0, next_run_at = 0
      WHERE study_id = ? AND state = 'done'
        AND (rep_id IS NULL OR NOT EXISTS (SELECT 1 FROM judge_reps r WHERE r.id = jobs.rep_id))`,
  ).run(studyId).changes;
}

/** Sets a study running again (after its failed reps were requeued), whatever it ended as. */
export function reopenStudy(store: Store, studyId: string): void {
  setStatus(store, studyId, 'running', null);
}

/** Cancels a study: queued jobs are cancelled; running ones are aborted by their runner. */
export function cancelStudy(store: Store, studyId: string): void {
  store.db.transaction(() => {
    setStatus(store, studyId, 'cancelled', 'cancelled by the researcher');
    store.db
      .prepare(`UPDATE jobs SET state = 'cancelled' WHERE study_id = ? AND state = 'queued'`)
      .run(studyId);
  })();
}

/** Marks the study completed when nothing is queued or running; true when it did. */
export function completeIfDone(store: Store, studyId: string): boolean {
  const open = statement(
    store,
    `SELECT count(*) AS n FROM jobs WHERE study_id = ? AND state IN ('queued', 'running')`,
  ).get(studyId) as { n: number };
  if (open.n > 0) return false;
  const { status } = studyStatus(store, studyId);
  if (status !== 'running') return false;
  setStatus(store, studyId, 'completed', null);
  return true;
}

/** Total cost of a study's stored reps; null parts (unknown prices) are counted separately. */
export function studyCost(store: Store, studyId: string): { usd: number; unpricedReps: number } {
  const row = statement(
    store,
    `SELECT coalesce(sum(cost_usd), 0) AS usd, sum(CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END) AS unpriced
         FROM judge_reps WHERE study_id = ?`,
  ).get(studyId) as { usd: number; unpriced: number | null };
  return { usd: row.usd, unpricedReps: row.unpriced ?? 0 };
}

/**
 * What each judge's stored reps of a study cost, USD, by judge id; a judge none of whose reps
 * was priced is left out (the report card shows its cost as unknown).
 */
export function judgeCosts(store: Store, studyId: string): Map<string, number> {
  const rows = statement(
    store,
    `SELECT j.judge_id AS judge, sum(r.cost_usd) AS usd
       FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
      WHERE j.study_id = ? AND r.cost_usd IS NOT NULL
      GROUP BY j.judge_id`,
  ).all(studyId) as { judge: string; usd: number }[];
  return new Map(rows.map((row) => [row.judge, row.usd]));
}

/** Progress of a study: counts by condition and state, cost, failures, ETA. */
export function studyProgress(
  store: Store,
  studyId: string,
  etaSeconds: number | null = null,
  now = Date.now(),
): StudyProgress {
  const { status, pausedReason } = studyStatus(store, studyId);
  // A running job whose lease ran out has no live worker (it crashed, or its database write
  // failed): it is waiting to be taken over, so it counts as queued, never as a ghost runner.
  const rows = statement(
    store,
    `SELECT c.key, c.label, c.position,
              CASE WHEN j.state = 'running' AND coalesce(j.lease_expires_at, 0) <= ? THEN 'queued' ELSE j.state END AS state,
              count(j.id) AS n
         FROM study_conditions c LEFT JOIN jobs j ON j.study_id = c.study_id AND j.condition_key = c.key
        WHERE c.study_id = ? GROUP BY c.key, 4 ORDER BY c.position`,
  ).all(now, studyId) as {
    key: string;
    label: string;
    position: number;
    state: string | null;
    n: number;
  }[];
  const arms = new Map<string, StudyProgress['arms'][number]>();
  for (const row of rows) {
    const arm = arms.get(row.key) ?? {
      key: row.key,
      label: row.label,
      queued: 0,
      running: 0,
      done: 0,
      failed: 0,
      cancelled: 0,
    };
    if (row.state)
      arm[row.state as 'queued' | 'running' | 'done' | 'failed' | 'cancelled'] += row.n;
    arms.set(row.key, arm);
  }
  const failures = jobErrors(store, studyId, `state = 'failed'`);
  const undetermined = statement(
    store,
    `SELECT count(*) AS n FROM study_majorities WHERE study_id = ? AND majority IS NULL AND mean_score IS NULL`,
  ).get(studyId) as { n: number };
  const retries = jobErrors(store, studyId, `state = 'queued' AND last_error IS NOT NULL`);
  const retryingCount = statement(
    store,
    `SELECT count(*) AS n FROM jobs WHERE study_id = ? AND state = 'queued' AND last_error IS NOT NULL`,
  ).get(studyId) as { n: number };
  const outcomeRows = statement(
    store,
    `SELECT r.outcome, count(*) AS n FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
        WHERE j.study_id = ? AND j.state = 'done' GROUP BY r.outcome`,
  ).all(studyId) as { outcome: string; n: number }[];
  const outcome = (name: string) => outcomeRows.find((row) => row.outcome === name)?.n ?? 0;
  // The join above drops a done job whose rep is gone: what it leaves out is the missing count.
  const doneWithRep = outcomeRows.reduce((sum, row) => sum + row.n, 0);
  const cost = studyCost(store, studyId);
  const all = [...arms.values()];
  const total = all.reduce(
    (sum, arm) => sum + arm.queued + arm.running + arm.done + arm.failed + arm.cancelled,
    0,
  );
  return {
    studyId,
    status: status as StudyProgress['status'],
    pausedReason,
    arms: all,
    total,
    // The runner's studyProgress adds the cued reps still to be queued, and the pace.
    plannedTotal: total,
    repsPerMinute: null,
    done: all.reduce((sum, arm) => sum + arm.done, 0),
    failed: all.reduce((sum, arm) => sum + arm.failed, 0),
    running: all.reduce((sum, arm) => sum + arm.running, 0),
    costUsd: cost.usd,
    unpricedReps: cost.unpricedReps,
    etaSeconds,
    retrying: retryingCount.n,
    outcomes: {
      verdict: outcome('verdict'),
      invalidVerdict: outcome('invalid_verdict'),
      budgetExhausted: outcome('budget_exhausted'),
    },
    retries,
    undeterminedItems: undetermined.n,
    failures,
    missingReps: Math.max(0, all.reduce((sum, arm) => sum + arm.done, 0) - doneWithRep),
    importedReps: importedRepCount(store, studyId),
    // Read again when the status moves: a study's last line must not show a share read before
    // its last calls.
    ...cacheField(promptCacheStats(store, studyId, now, status)),
  };
}

/** Up to 50 jobs of a study matching `where` (a fixed SQL condition), with their last error. */
function jobErrors(store: Store, studyId: string, where: string): StudyProgress['failures'] {
  const rows = statement(
    store,
    `SELECT id, condition_key, item_id, judge_id, rep, direction, attempts, last_error FROM jobs
        WHERE study_id = ? AND ${where} ORDER BY id LIMIT 50`,
  ).all(studyId) as {
    id: number;
    condition_key: string;
    item_id: string;
    judge_id: string;
    rep: number;
    direction: string;
    attempts: number;
    last_error: string | null;
  }[];
  return rows.map((row) => ({
    jobId: row.id,
    conditionKey: row.condition_key,
    itemId: row.item_id,
    judgeId: row.judge_id,
    rep: row.rep,
    direction: row.direction,
    attempts: row.attempts,
    error: row.last_error ?? 'unknown error',
  }));
}

function cacheField(cache: StudyProgress['promptCache']): Pick<StudyProgress, 'promptCache'> {
  return cache ? { promptCache: cache } : {};
}
