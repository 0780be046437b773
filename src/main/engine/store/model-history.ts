import type { Store } from './database';

/** What earlier reps of one model cost on average (the estimate's basis once there are some). */
export interface ModelRepHistory {
  /** Reps of the model that ended in a verdict. */
  reps: number;
  /** Mean tokens and duration per rep; null when there are none. */
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number | null;
  /** Mean model calls per rep; null when there are none. */
  turns: number | null;
}

/** The mean tokens and duration of the model's earlier reps that gave a verdict. */
export function modelRepHistory(store: Store, model: string): ModelRepHistory {
  const row = store.db
    .prepare(
      `SELECT count(*) AS n, avg(input_tokens) AS input, avg(output_tokens) AS output, avg(duration_ms) AS ms,
              avg(turns) AS turns
         FROM judge_reps WHERE model = ? AND outcome = 'verdict'`,
    )
    .get(model) as {
    n: number;
    input: number | null;
    output: number | null;
    ms: number | null;
    turns: number | null;
  };
  return {
    reps: row.n,
    inputTokens: row.input,
    outputTokens: row.output,
    durationMs: row.ms,
    turns: row.turns,
  };
}

/** How long reps of one provider's model took on this machine, from the workspace's jobs. */
export interface MeasuredRepTime {
  /** Finished reps it is read from (the most recent 200). */
  reps: number;
  /** Their median wall time from claim to stored verdict; null when there are none. */
  medianMs: number | null;
}

/**
 * The median wall time of the most recent finished reps of `provider`/`model`: the time a job
 * held its worker (claim to stored rep), container and tool calls included, so it is what a
 * new study of that judge will take per rep here. A median, so one stalled rep does not move it.
 */
export function measuredRepTime(store: Store, provider: string, model: string): MeasuredRepTime {
  const rows = store.db
    .prepare(
      `SELECT j.duration_ms AS ms FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
        WHERE r.provider = ? AND r.model = ? AND j.state = 'done' AND j.duration_ms IS NOT NULL
        ORDER BY j.finished_at DESC LIMIT 200`,
    )
    .all(provider, model) as { ms: number }[];
  const sorted = rows.map((row) => row.ms).sort((a, b) => a - b);
  if (sorted.length === 0) return { reps: 0, medianMs: null };
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { reps: sorted.length, medianMs: median };
}
