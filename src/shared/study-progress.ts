/** A study's progress as the runner reports it (LabApi event `study.progress`, `cuelab status`). */
import { z } from 'zod';

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
  done: z.number(),
  failed: z.number(),
  running: z.number(),
  costUsd: z.number(),
  /** Reps whose model has no price: their cost is unknown, not zero. */
  unpricedReps: z.number(),
  /** Seconds to finish the known jobs at the current pace; null before any rep finished. */
  etaSeconds: z.number().nullable(),
  /** Items whose uncued majority was a tie or had no valid verdict (no cued reps queued). */
  undeterminedItems: z.number(),
  failures: z.array(
    z.object({
      jobId: z.number(),
      conditionKey: z.string(),
      itemId: z.string(),
      judgeId: z.string(),
      rep: z.number(),
      direction: z.string(),
      error: z.string(),
    }),
  ),
});

export type StudyProgress = z.output<typeof studyProgressSchema>;
