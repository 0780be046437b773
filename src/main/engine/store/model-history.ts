import type { Store } from './database';

/** What earlier reps of one model cost on average (the estimate's basis once there are some). */
export interface ModelRepHistory {
  /** Reps of the model that ended in a verdict. */
  reps: number;
  /** Mean tokens and duration per rep; null when there are none. */
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number | null;
}

/** The mean tokens and duration of the model's earlier reps that gave a verdict. */
export function modelRepHistory(store: Store, model: string): ModelRepHistory {
  const row = store.db
    .prepare(
      `SELECT count(*) AS n, avg(input_tokens) AS input, avg(output_tokens) AS output, avg(duration_ms) AS ms
         FROM judge_reps WHERE model = ? AND outcome = 'verdict'`,
    )
    .get(model) as { n: number; input: number | null; output: number | null; ms: number | null };
  return { reps: row.n, inputTokens: row.input, outputTokens: row.output, durationMs: row.ms };
}
