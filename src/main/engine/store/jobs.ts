/**
 * The job queue in SQLite (CONVENTIONS.md, "Durable jobs on SQLite"): a job is claimed inside
 * BEGIN IMMEDIATE with a lease that expires; completing or failing it is a compare-and-swap on
 * the lease id, so a job whose lease was taken over can never be completed twice.
 */
import { randomUUID } from 'node:crypto';
import { statement, type Store } from './database';

/** What identifies a job; unique per study. */
export interface JobKey {
  studyId: string;
  conditionKey: string;
  itemId: string;
  judgeId: string;
  rep: number;
  /** '' for the uncued control. */
  direction: '' | 'severity' | 'leniency';
}

/** A claimed job. */
export interface ClaimedJob extends JobKey {
  id: number;
  leaseId: string;
  attempts: number;
}

/** Queues a job unless the same key exists (idempotent); true when it was new. */
export function insertJob(store: Store, key: JobKey): boolean {
  const result = statement(
    store,
    `INSERT OR IGNORE INTO jobs (study_id, condition_key, item_id, judge_id, rep, direction, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'queued', ?)`,
  ).run(
    key.studyId,
    key.conditionKey,
    key.itemId,
    key.judgeId,
    key.rep,
    key.direction,
    new Date().toISOString(),
  );
  return result.changes === 1;
}

/** Limits a claim must respect, given what is already running. */
export interface ClaimLimits {
  /** Judge id → most running at once. */
  perJudge: Record<string, number>;
  /** Skip these studies (e.g. at their container limit). */
  excludeStudies?: readonly string[];
  /** Only these studies (a CLI run of one study). */
  onlyStudies?: readonly string[];
}

interface JobRow {
  id: number;
  study_id: string;
  condition_key: string;
  item_id: string;
  judge_id: string;
  rep: number;
  direction: '' | 'severity' | 'leniency';
  attempts: number;
  state: 'queued' | 'running';
}

/**
 * The queued jobs a claim reads, in claim order: served by the claim-order index (migration
 * 0010) without sorting (test/unit/store-claim.test.ts checks the plan).
 */
export const queuedClaimSql = `SELECT j.id, j.study_id, j.condition_key, j.item_id, j.judge_id, j.rep, j.direction, j.attempts, j.state
  FROM jobs j JOIN studies s ON s.id = j.study_id
 WHERE j.state = 'queued' AND +j.next_run_at <= ? AND s.status = 'running'
 ORDER BY (j.direction <> ''), j.id LIMIT 200`;

/**
 * Claims the next runnable job of a running study: queued and due, or running with an expired
 * lease (its worker died). Uncued jobs first (they unlock cued ones), then by id.
 */
export function claimJob(
  store: Store,
  owner: number,
  leaseMs: number,
  limits: ClaimLimits,
  now = Date.now(),
): ClaimedJob | null {
  const claim = store.db.transaction((): ClaimedJob | null => {
    // Counted only when some judge has a limit: most studies set none, and this is per claim.
    const judgeLimited = Object.keys(limits.perJudge).length > 0;
    const busy = new Map<string, number>();
    if (judgeLimited) {
      const running = statement<[number], { judge_id: string; n: number }>(
        store,
        `SELECT judge_id, count(*) AS n FROM jobs WHERE state = 'running' AND lease_expires_at > ? GROUP BY judge_id`,
      ).all(now);
      for (const row of running) busy.set(row.judge_id, row.n);
    }
    const excluded = new Set(limits.excludeStudies ?? []);
    const only = limits.onlyStudies ? new Set(limits.onlyStudies) : null;
    const eligible = (row: JobRow): boolean => {
      if (excluded.has(row.study_id) || (only && !only.has(row.study_id))) return false;
      const limit = limits.perJudge[row.judge_id];
      return limit === undefined || (busy.get(row.judge_id) ?? 0) < limit;
    };
    // Read row by row and stop at the first eligible one: usually the first. Queued
    // jobs come off the claim-order index (migration 0010; the unary + keeps the planner from
    // the due-time index, which would sort every runnable job); the few expired leases are
    // merged in by the same order.
    const expired = statement<[number], JobRow>(
      store,
      `SELECT j.id, j.study_id, j.condition_key, j.item_id, j.judge_id, j.rep, j.direction, j.attempts, j.state
         FROM jobs j JOIN studies s ON s.id = j.study_id
        WHERE j.state = 'running' AND j.lease_expires_at <= ? AND s.status = 'running'
        ORDER BY (j.direction <> ''), j.id`,
    ).all(now);
    const queued = statement<[number], JobRow>(store, queuedClaimSql);
    let job: JobRow | undefined = undefined;
    let lease = 0;
    const before = (a: JobRow, b: JobRow) =>
      a.direction === '' && b.direction !== ''
        ? true
        : (a.direction === '') === (b.direction === '') && a.id < b.id;
    for (const row of queued.iterate(now)) {
      for (; lease < expired.length && before(expired[lease] as JobRow, row); lease += 1)
        if (eligible(expired[lease] as JobRow)) {
          job = expired[lease];
          break;
        }
      if (job) break;
      if (!eligible(row)) continue;
      job = row;
      break;
    }
    for (; !job && lease < expired.length; lease += 1)
      if (eligible(expired[lease] as JobRow)) job = expired[lease];
    if (!job) return null;
    const leaseId = randomUUID();
    // Taking over an expired lease (its worker crashed) continues that attempt: a crash is
    // not the rep's failure and must not use up its attempts.
    const taken = job.state === 'running' ? 0 : 1;
    statement(
      store,
      `UPDATE jobs SET state = 'running', lease_id = ?, lease_owner = ?, lease_expires_at = ?, attempts = attempts + ?
          WHERE id = ?`,
    ).run(leaseId, owner, now + leaseMs, taken, job.id);
    return {
      id: job.id,
      leaseId,
      attempts: job.attempts + taken,
      studyId: job.study_id,
      conditionKey: job.condition_key,
      itemId: job.item_id,
      judgeId: job.judge_id,
      rep: job.rep,
      direction: job.direction,
    };
  });
  return claim.immediate();
}

/** Extends a lease; false when it was lost (another worker took the job over). */
export function renewLease(
  store: Store,
  job: ClaimedJob,
  leaseMs: number,
  now = Date.now(),
): boolean {
  const result = statement(
    store,
    `UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_id = ? AND state = 'running'`,
  ).run(now + leaseMs, job.id, job.leaseId);
  return result.changes === 1;
}

/** Marks a job done with its rep; false when the lease was lost. */
export function completeJob(
  store: Store,
  job: ClaimedJob,
  repId: string,
  durationMs: number,
): boolean {
  const result = statement(
    store,
    `UPDATE jobs SET state = 'done', rep_id = ?, duration_ms = ?, finished_at = ?, lease_id = NULL,
              lease_expires_at = NULL, last_error = NULL
        WHERE id = ? AND lease_id = ? AND state = 'running'`,
  ).run(repId, durationMs, new Date().toISOString(), job.id, job.leaseId);
  return result.changes === 1;
}

/** Records a failure: back to the queue after `retryInMs`, or failed for good when null. */
export function failJob(
  store: Store,
  job: ClaimedJob,
  error: string,
  retryInMs: number | null,
  now = Date.now(),
): void {
  statement(
    store,
    `UPDATE jobs SET state = ?, last_error = ?, next_run_at = ?, lease_id = NULL, lease_expires_at = NULL,
              finished_at = CASE WHEN ? IS NULL THEN ? ELSE NULL END
        WHERE id = ? AND lease_id = ?`,
  ).run(
    retryInMs === null ? 'failed' : 'queued',
    error,
    now + (retryInMs ?? 0),
    retryInMs,
    new Date(now).toISOString(),
    job.id,
    job.leaseId,
  );
}

/** Ends a job that was in flight when its study was cancelled: cancelled, not failed. */
export function cancelJob(store: Store, job: ClaimedJob, now = Date.now()): void {
  statement(
    store,
    `UPDATE jobs SET state = 'cancelled', last_error = NULL, lease_id = NULL, lease_expires_at = NULL,
              finished_at = ?
        WHERE id = ? AND lease_id = ?`,
  ).run(new Date(now).toISOString(), job.id, job.leaseId);
}

/** Gives a job back to the queue without counting an attempt (pause, shutdown). */
export function releaseJob(store: Store, job: ClaimedJob): void {
  statement(
    store,
    `UPDATE jobs SET state = 'queued', attempts = max(0, attempts - 1), lease_id = NULL, lease_expires_at = NULL
        WHERE id = ? AND lease_id = ?`,
  ).run(job.id, job.leaseId);
}

/**
 * Requeues running jobs whose owner process is gone (a crashed engine), at once. The crash
 * was not the rep's failure, so the attempt it was in is given back.
 */
export function requeueOrphanedJobs(store: Store, isAlive: (pid: number) => boolean): number {
  const rows = statement(
    store,
    `SELECT id, lease_owner FROM jobs WHERE state = 'running'`,
  ).all() as { id: number; lease_owner: number | null }[];
  const orphaned = rows.filter((row) => row.lease_owner === null || !isAlive(row.lease_owner));
  const requeue = store.db.prepare(
    `UPDATE jobs SET state = 'queued', attempts = max(0, attempts - 1), lease_id = NULL, lease_expires_at = NULL,
            next_run_at = 0 WHERE id = ? AND state = 'running'`,
  );
  store.db.transaction(() => {
    for (const row of orphaned) requeue.run(row.id);
  })();
  return orphaned.length;
}

/**
 * Gives every running job leased by `owner` back to the queue without counting an attempt
 * (a runner that must stop writing, once its reps have ended); optionally only some studies.
 */
export function releaseOwnedJobs(
  store: Store,
  owner: number,
  onlyStudies?: readonly string[],
): number {
  const rows = statement(
    store,
    `SELECT id, study_id FROM jobs WHERE state = 'running' AND lease_owner = ?`,
  ).all(owner) as { id: number; study_id: string }[];
  const release = store.db.prepare(
    `UPDATE jobs SET state = 'queued', attempts = max(0, attempts - 1), lease_id = NULL,
            lease_expires_at = NULL WHERE id = ? AND state = 'running'`,
  );
  const mine = rows.filter((row) => !onlyStudies || onlyStudies.includes(row.study_id));
  for (const row of mine) release.run(row.id);
  return mine.length;
}

/** Failed jobs of a study back to the queue (the window's retry action). */
export function retryFailedJobs(store: Store, studyId: string): number {
  return statement(
    store,
    `UPDATE jobs SET state = 'queued', next_run_at = 0, attempts = 0 WHERE study_id = ? AND state = 'failed'`,
  ).run(studyId).changes;
}

/** Jobs still to run (queued or running) in running studies, optionally only some studies. */
export function openJobCount(store: Store, onlyStudies?: readonly string[]): number {
  const rows = statement(
    store,
    `SELECT j.study_id, count(*) AS n FROM jobs j JOIN studies s ON s.id = j.study_id
        WHERE s.status = 'running' AND j.state IN ('queued', 'running') GROUP BY j.study_id`,
  ).all() as { study_id: string; n: number }[];
  return rows
    .filter((row) => !onlyStudies || onlyStudies.includes(row.study_id))
    .reduce((sum, row) => sum + row.n, 0);
}

/** Running jobs per study (for container limits). */
export function runningByStudy(store: Store): Map<string, number> {
  const rows = statement(
    store,
    `SELECT study_id, count(*) AS n FROM jobs WHERE state = 'running' GROUP BY study_id`,
  ).all() as { study_id: string; n: number }[];
  return new Map(rows.map((row) => [row.study_id, row.n]));
}

/** Ids of the workspace's running studies. */
export function runningStudyIds(store: Store): string[] {
  return (
    statement(store, `SELECT id FROM studies WHERE status = 'running'`).all() as { id: string }[]
  ).map((row) => row.id);
}
