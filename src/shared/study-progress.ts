/** A study's progress as the runner reports it (LabApi event `study.progress`, `cuelab status`). */
import { z } from 'zod';

/** One job and the error it last met (a failure, or the cause of a retry in progress). */
const jobErrorSchema = z.object({
  jobId: z.number(),
  conditionKey: z.string(),
  itemId: z.string(),
  judgeId: z.string(),
  rep: z.number(),
  direction: z.string(),
  /** Attempts so far (a crash does not count one). */
  attempts: z.number(),
  error: z.string(),
});

export const studyProgressSchema = z.object({
  studyId: z.string(),
  status: z.enum(['draft', 'queued', 'running', 'paused', 'cancelled', 'completed', 'failed']),
  /** Why the study is paused (cost cap, a rejected key, the researcher). */
  pausedReason: z.string().nullable(),
  /** Per condition: job counts by state. Cued arms grow as uncued majorities are fixed. */
  arms: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      queued: z.number(),
      running: z.number(),
      done: z.number(),
      failed: z.number(),
      cancelled: z.number(),
    }),
  ),
  /** Jobs known so far (cued jobs appear once their item's uncued majority is fixed). */
  total: z.number(),
  /**
   * Reps the study will run: the known jobs plus the cued reps still to be queued once their
   * majorities are fixed. Percent done counts against this, so it never falls as cued reps
   * are queued (an undetermined item queues none, and the total shrinks).
   */
  plannedTotal: z.number(),
  done: z.number(),
  failed: z.number(),
  running: z.number(),
  costUsd: z.number(),
  /** Reps whose model has no price: their cost is unknown, not zero. */
  unpricedReps: z.number(),
  /**
   * Seconds to finish the planned reps at the pace measured over the recent finished reps
   * (concurrency as observed); null before any rep finished.
   */
  etaSeconds: z.number().nullable(),
  /** Reps finished per minute over the recent finished reps; null before any rep finished. */
  repsPerMinute: z.number().nullable(),
  /** Jobs waiting to run again after a failed attempt (transient error, lost environment). */
  retrying: z.number(),
  /**
   * How the done reps ended: a verdict, no valid verdict after the repair turn, or the hard
   * tool budget reached (App. R). Only `verdict` reps vote and count in the tables.
   */
  outcomes: z.object({
    verdict: z.number(),
    invalidVerdict: z.number(),
    budgetExhausted: z.number(),
  }),
  /** The retries in progress: each job's attempts so far and the error it is retried after. */
  retries: z.array(jobErrorSchema),
  /** Items whose uncued majority was a tie or had no valid verdict (no cued reps queued). */
  undeterminedItems: z.number(),
  /** Jobs failed for good, with their last error. */
  failures: z.array(jobErrorSchema),
  /**
   * Jobs marked done whose rep row is gone (a damaged or hand-edited workspace): counted in
   * `done`, but no table or replay can read them.
   */
  missingReps: z.number().int().min(0),
  /** Reps an imported study holds (it has no jobs: its reps came from a results file). */
  importedReps: z.number().int().min(0).default(0),
  /**
   * Input tokens of the study's model calls and the prompt cache's share of them (Anthropic
   * cache reads and writes, OpenAI `cached_tokens`); absent before any call reported usage.
   */
  promptCache: z
    .object({ inputTokens: z.number(), readTokens: z.number(), writeTokens: z.number() })
    .optional(),
  /** A provider's rate limit the runner is waiting on, and until when (epoch ms). */
  providerWait: z
    .object({ provider: z.string(), untilMs: z.number(), reason: z.string() })
    .nullable()
    .optional(),
});

export type StudyProgress = z.output<typeof studyProgressSchema>;

/** "62% of input from the prompt cache", or '' when no call reported input. */
export function formatCacheHitRate(cache: StudyProgress['promptCache']): string {
  if (!cache || cache.inputTokens <= 0) return '';
  const percent = Math.round((cache.readTokens / cache.inputTokens) * 100);
  return `${percent}% of input from the prompt cache`;
}

/** 0.43 → "0.43 reps/min", 12.5 → "12.5 reps/min"; empty before any rep finished. */
export function formatPace(repsPerMinute: number | null): string {
  if (repsPerMinute === null || !Number.isFinite(repsPerMinute)) return '';
  const digits = repsPerMinute >= 100 ? 0 : repsPerMinute >= 10 ? 1 : 2;
  return `${repsPerMinute.toFixed(digits)} reps/min`;
}
