/**
 * Noisy gold for a native study (App. G): for every item and binary dimension other than task
 * success that the study judged, the meta-judge ensemble's consensus on the item's uncued
 * evidence, stored in `dimension_gold` (migration 6). Reports and the flip finder read it as the
 * gold of those dimensions; task success keeps its verifier's label. An item already given a
 * gold is not asked again unless `force` is set, so an interrupted run resumes without paying
 * twice.
 */
import { type Store, getSuiteItem } from '../../store';
import type { EnsembleDeps } from '../ensemble/run';
import type { EnsembleConfig, Voter } from '../ensemble/voters';
import type { ModelProvider } from '../../providers';
import { loadRunRecord } from '../run-record';
import type { Outcome } from '../../mechanism-labels';
import { runConsensusGold, type ConsensusGold } from './gold';

/** The dimension whose gold is its verifier's label (App. G, App. M). */
export const VERIFIED_DIMENSION = 'task_success';

/** Written in `dimension_gold.source` and shown beside every table that uses it. */
export const CONSENSUS_GOLD_SOURCE = 'meta-judge consensus';

/** One item and dimension that needs a consensus gold, with its uncued evidence. */
export interface GoldCase {
  itemId: string;
  dimension: string;
  suiteId: string;
  /** Uncued reps with a valid binary verdict on this dimension, any judge. */
  repIds: string[];
}

/** What deriveStudyGold did. */
export interface GoldSummary {
  cases: number;
  asked: number;
  skipped: number;
  pass: number;
  fail: number;
  undecided: number;
  invalidVotes: number;
}

/** The item × dimension cases of a study that take a consensus gold (binary, no verifier). */
export function goldCases(store: Store, studyId: string): GoldCase[] {
  const rows = store.db
    .prepare(
      `SELECT j.item_id, r.suite_id, r.id AS rep_id,
              json_extract(r.condition_json, '$.dimension') AS dimension
         FROM jobs j JOIN judge_reps r ON r.id = j.rep_id
         JOIN study_items i ON i.study_id = j.study_id AND i.item_id = j.item_id
        WHERE j.study_id = ? AND j.state = 'done' AND j.direction = ''
          AND (j.condition_key = 'uncued' OR j.condition_key LIKE 'uncued#%')
          AND r.outcome = 'verdict' AND json_extract(r.final_verdict_json, '$.kind') = 'binary'
        ORDER BY i.position, j.condition_key, j.judge_id, j.rep`,
    )
    .all(studyId) as { item_id: string; suite_id: string; rep_id: string; dimension: string }[];
  const cases = new Map<string, GoldCase>();
  for (const row of rows) {
    if (!row.dimension || row.dimension === VERIFIED_DIMENSION) continue;
    const key = `${row.item_id}\u0000${row.dimension}`;
    const entry = cases.get(key) ?? {
      itemId: row.item_id,
      dimension: row.dimension,
      suiteId: row.suite_id,
      repIds: [],
    };
    entry.repIds.push(row.rep_id);
    cases.set(key, entry);
  }
  return [...cases.values()];
}

/** The stored consensus gold of a study, keyed `item \0 dimension`. */
export function storedGold(store: Store, studyId: string): Map<string, Outcome | null> {
  const rows = store.db
    .prepare('SELECT item_id, dimension, gold FROM dimension_gold WHERE study_id = ?')
    .all(studyId) as { item_id: string; dimension: string; gold: Outcome | null }[];
  return new Map(rows.map((row) => [`${row.item_id}\u0000${row.dimension}`, row.gold]));
}

function saveGold(store: Store, studyId: string, entry: GoldCase, result: ConsensusGold): void {
  store.db
    .prepare(
      `INSERT INTO dimension_gold
         (study_id, item_id, dimension, gold, source, decided_by, evidence_reps, details_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (study_id, item_id, dimension) DO UPDATE SET
         gold = excluded.gold, source = excluded.source, decided_by = excluded.decided_by,
         evidence_reps = excluded.evidence_reps, details_json = excluded.details_json,
         created_at = excluded.created_at`,
    )
    .run(
      studyId,
      entry.itemId,
      entry.dimension,
      result.gold,
      CONSENSUS_GOLD_SOURCE,
      result.decidedBy,
      entry.repIds.length,
      JSON.stringify({
        tally: result.tally,
        tieBreaker: result.tieBreakerId,
        promptVersion: result.promptVersion,
        evidenceRepIds: entry.repIds,
        votes: result.votes,
      }),
      new Date().toISOString(),
    );
}

/** Derives (or resumes deriving) the consensus gold of every case of a study. */
export async function deriveStudyGold(
  store: Store,
  studyId: string,
  config: EnsembleConfig,
  deps: EnsembleDeps & { providerFor(voter: Voter): ModelProvider; force?: boolean },
): Promise<GoldSummary> {
  const cases = goldCases(store, studyId);
  const existing = storedGold(store, studyId);
  const pending = cases.filter(
    (entry) => deps.force || !existing.has(`${entry.itemId}\u0000${entry.dimension}`),
  );
  const summary: GoldSummary = {
    cases: cases.length,
    asked: 0,
    skipped: cases.length - pending.length,
    pass: 0,
    fail: 0,
    undecided: 0,
    invalidVotes: 0,
  };
  for (const entry of pending) {
    deps.signal?.throwIfAborted();
    const item = getSuiteItem(store, entry.suiteId, entry.itemId);
    const result = await runConsensusGold(
      {
        task: item.task,
        dimension: entry.dimension,
        trajectory: item.trajectory,
        runs: entry.repIds.map((repId) => loadRunRecord(store, repId)),
      },
      config,
      deps,
    );
    saveGold(store, studyId, entry, result);
    summary.asked += 1;
    if (result.gold === null) summary.undecided += 1;
    else summary[result.gold] += 1;
    summary.invalidVotes += result.votes.filter((vote) => vote.verdict === 'invalid').length;
  }
  return summary;
}
