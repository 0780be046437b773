/**
 * Noisy gold for a native study (App. G): for every item and dimension other than task success
 * that the study judged, the meta-judge ensemble's consensus on the item's uncued evidence,
 * stored in `dimension_gold` (migration 6). Graded dimensions take one too: their harmful /
 * helpful gate needs to know whether the work is good on the dimension. Reports and the flip finder read it as the
 * gold of those dimensions; task success keeps its verifier's label. An item already given a
 * gold is not asked again unless `force` is set, so an interrupted run resumes without paying
 * twice.
 */
import { type Store } from '../../store';
import { readDimensionGold, saveDimensionGold, uncuedJudgedReps } from '../../store/faces/reps';
import { getSuiteItem } from '../../store/faces/suites';
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
  /** Uncued reps with a valid verdict on this dimension, any judge. */
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

/** The item × dimension cases of a study that take a consensus gold (no verifier). */
export function goldCases(store: Store, studyId: string): GoldCase[] {
  const rows = uncuedJudgedReps(store, studyId);
  const cases = new Map<string, GoldCase>();
  for (const row of rows) {
    if (!row.dimension || row.dimension === VERIFIED_DIMENSION) continue;
    const key = `${row.itemId}\u0000${row.dimension}`;
    const entry = cases.get(key) ?? {
      itemId: row.itemId,
      dimension: row.dimension,
      suiteId: row.suiteId,
      repIds: [],
    };
    entry.repIds.push(row.repId);
    cases.set(key, entry);
  }
  return [...cases.values()];
}

/** The stored consensus gold of a study, keyed `item \0 dimension`. */
export function storedGold(store: Store, studyId: string): Map<string, Outcome | null> {
  return new Map(
    readDimensionGold(store, studyId).map((row) => [
      `${row.itemId}\u0000${row.dimension}`,
      row.gold,
    ]),
  );
}

function saveGold(store: Store, studyId: string, entry: GoldCase, result: ConsensusGold): void {
  saveDimensionGold(store, {
    studyId,
    itemId: entry.itemId,
    dimension: entry.dimension,
    gold: result.gold,
    source: CONSENSUS_GOLD_SOURCE,
    decidedBy: result.decidedBy,
    evidenceReps: entry.repIds.length,
    details: {
      tally: result.tally,
      tieBreaker: result.tieBreakerId,
      promptVersion: result.promptVersion,
      evidenceRepIds: entry.repIds,
      votes: result.votes,
    },
  });
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
