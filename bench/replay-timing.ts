/**
 * Part (c), replay: a harmful flip of the paper-scale workspace and its uncued twin, each padded
 * to 500 tool calls ("Replay of a 500-tool-call pair opens in < 300 ms of engine
 * time"), opened the way the window opens it (the `loadFlipPair` handler: the flip found among
 * its item's reps, both runs loaded, diffed and aligned, labels read). Median of `samples`.
 */
import { mechanismHandlers } from '../src/main/engine/api/mechanism-handlers';
import { createSecrets } from '../src/main/engine/api/secrets';
import { findFlippedRep } from '../src/main/engine/metajudge/flipped';
import type { Store } from '../src/main/engine/store/database';
import { rounded, summarize, timed, type Summary } from './measure';

/** The replay timing. */
export interface ReplayTiming {
  repId: string;
  toolCallsPerRun: number;
  openMs: Summary;
  targetMs: number;
  /** openMs.median ÷ targetMs; ≤ 1 meets the target. */
  ratioToTarget: number;
}

const targetMs = 300;

/** Copies a rep's stored tool calls after themselves until it has `calls` of them. */
function padToolCalls(store: Store, repId: string, calls: number): void {
  const count = () =>
    (
      store.db
        .prepare<[string], { n: number }>(
          'SELECT count(*) AS n FROM judge_tool_calls WHERE rep_id = ?',
        )
        .get(repId) ?? { n: 0 }
    ).n;
  const copy = store.db.prepare<[{ offset: number; suffix: string; take: number; repId: string }]>(
    `INSERT INTO judge_tool_calls (rep_id, seq, turn, call_id, name, input_json, output, is_error,
       duration_ms, result_number, stop_directive)
     SELECT rep_id, seq + @offset, turn, call_id || @suffix, name, input_json, output, is_error,
            duration_ms, result_number + @offset, 0
       FROM judge_tool_calls WHERE rep_id = @repId AND seq < @take`,
  );
  store.db.transaction(() => {
    let have = count();
    if (have === 0) throw new Error(`rep ${repId} has no tool calls to copy`);
    while (have < calls) {
      copy.run({ offset: have, suffix: `_${have}`, take: Math.min(have, calls - have), repId });
      have = count();
    }
  })();
}

/** Times opening the replay of a 500-call pair in the (generated) workspace. */
export async function benchReplay(store: Store, samples = 5): Promise<ReplayTiming> {
  const candidates = store.db
    .prepare<[], { rep_id: string }>(
      `SELECT rep_id FROM mechanism_labels WHERE source = 'diff'
        AND label IN ('over_trust', 'hallucination', 'under_investigation') ORDER BY rep_id LIMIT 50`,
    )
    .all();
  const flip = candidates
    .map((row) => findFlippedRep(store, row.rep_id))
    .find((found) => found?.kind === 'harmful');
  if (!flip) throw new Error('the generated workspace has no harmful flip with a twin');
  const toolCallsPerRun = 500;
  padToolCalls(store, flip.repId, toolCallsPerRun);
  padToolCalls(store, flip.twinRepId, toolCallsPerRun);
  const handlers = mechanismHandlers({
    store,
    secrets: createSecrets({}),
    publish: () => undefined,
    onStudyChanged: () => undefined,
  });
  const times: number[] = [];
  // One opening first (not counted): the statements are prepared, as in a running engine.
  await handlers.loadFlipPair({ repId: flip.repId, blind: false });
  for (let run = 0; run < samples; run += 1) {
    const { ms } = await timed(() => handlers.loadFlipPair({ repId: flip.repId, blind: false }));
    times.push(ms);
  }
  const openMs = summarize(times);
  return {
    repId: flip.repId,
    toolCallsPerRun,
    openMs: rounded(openMs),
    targetMs,
    ratioToTarget: Math.round((openMs.median / targetMs) * 100) / 100,
  };
}
