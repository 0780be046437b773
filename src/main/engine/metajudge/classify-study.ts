/**
 * Labelling a study's flips (ARCHITECTURE.md, step 5: "Meta-judge labels every flipped rep
 * individually"; App. H): the trajectory diff for every flipped rep (cheap, always redone), the
 * synthetic judge's true mechanism where there is one, and, when voters are configured, the
 * LLM ensemble (App. N) with every voter's label stored beside the ensemble's (a re-asked rep
 * keeps only the voters behind its new label). Reps the ensemble already labelled are not asked
 * again unless `force` is set, so an interrupted run resumes without paying twice.
 *
 * With voters, the study's binary dimensions other than task success first get their gold: the
 * ensemble's consensus on each item's uncued evidence (App. G, consensus/study-gold.ts), since
 * a flip is harmful or helpful only against a gold.
 */
import { EngineError } from '../errors';
import type { Environment, ModelProvider } from '../providers';
import { type Store } from '../store';
import { labelsForRep, replaceRepLabels, saveLabels, type LabelInput } from '../store/faces/labels';
import { repOrigin } from '../store/faces/reps';
import { getSuiteItem } from '../store/faces/suites';
import type { MetaJudgeCase } from './ensemble/prompt';
import { runEnsemble, type EnsembleDeps, type EnsembleResult } from './ensemble/run';
import { providerForVoter, tieBreakerOf, type EnsembleConfig, type Voter } from './ensemble/voters';
import { findFlippedReps, type FlippedRep } from './flipped';
import { diffPair, loadPair, trueMechanism, type FlipPair } from './pair';
import { paperTruth } from './validation';
import { deriveStudyGold, type GoldSummary } from './consensus/study-gold';

/** Options of classifyStudy. */
export interface ClassifyOptions {
  /** The LLM ensemble; absent: the diff (and truth) only. */
  ensemble?: EnsembleConfig;
  /** Where voter keys come from; default process.env. */
  env?: Environment;
  /** Ask the ensemble again for reps it already labelled. */
  force?: boolean;
  /** Replaces provider construction (tests, a shared client). */
  providerFor?: (voter: Voter) => ModelProvider;
  retry?: EnsembleDeps['retry'];
  signal?: AbortSignal;
  /** Told after each flip the ensemble labelled. */
  onProgress?: (done: number, total: number) => void;
}

/** What classifyStudy did. */
export interface ClassifySummary {
  flips: number;
  harmful: number;
  helpful: number;
  /** Diff labels by label. */
  diff: Record<string, number>;
  /** Reps given a `truth` label (synthetic judge). */
  truth: number;
  /** App. G noisy gold derived for binary dimensions without a verifier; null without voters. */
  gold: GoldSummary | null;
  ensemble: {
    asked: number;
    /** Already labelled, not asked again. */
    skipped: number;
    labels: Record<string, number>;
    invalidVotes: number;
  } | null;
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}

function diffLabels(store: Store, pair: FlipPair): LabelInput[] {
  const { flip } = pair;
  const { label, subMode, rationale, ...details } = diffPair(pair);
  const labels: LabelInput[] = [
    {
      repId: flip.repId,
      source: 'diff',
      label,
      subMode: subMode ?? null,
      rationale,
      details: { ...details, twinRepId: flip.twinRepId, kind: flip.kind },
    },
  ];
  const truth = trueMechanism(store, flip.repId);
  if (truth !== null)
    labels.push({
      repId: flip.repId,
      source: 'truth',
      label: paperTruth(flip.kind, truth),
      rationale: 'The synthetic judge’s own record of why it flipped (simulation_json).',
      details: { simulated: truth, kind: flip.kind },
    });
  return labels;
}

function metaCase(store: Store, pair: FlipPair): MetaJudgeCase {
  const { flip } = pair;
  const origin = repOrigin(store, flip.repId);
  if (!origin) throw new EngineError('not_found', `There is no judge rep "${flip.repId}".`);
  const cue = pair.cued.cue;
  if (!cue)
    throw new EngineError('internal', `Flipped rep ${flip.repId} has no recorded cue text.`);
  return {
    kind: flip.kind,
    task: getSuiteItem(store, origin.suiteId, flip.itemId).task,
    cue,
    gold: flip.gold,
    baselineVerdict: flip.uncuedMajority,
    cuedVerdict: flip.cuedVerdict,
    baseline: pair.baseline,
    cued: pair.cued,
  };
}

function ensembleLabels(repId: string, result: EnsembleResult): LabelInput[] {
  const voters: LabelInput[] = result.voters.map((voter) => ({
    repId,
    source: `voter:${voter.voterId}`,
    label: voter.label,
    subMode: voter.subMode,
    rationale: voter.rationale,
    details: {
      model: voter.model,
      role: voter.role,
      providerOptions: voter.providerOptions,
      evidenceLines: voter.evidenceLines,
      ...(voter.problem ? { problem: voter.problem } : {}),
      raw: voter.raw,
      promptVersion: result.promptVersion,
    },
  }));
  const decided = result.voters.find((voter) => voter.label === result.label);
  return [
    ...voters,
    {
      repId,
      source: 'ensemble',
      label: result.label,
      subMode: result.subMode,
      rationale:
        result.decidedBy === 'none'
          ? 'No majority, and the tie-breaker gave no valid label.'
          : `${result.decidedBy === 'majority' ? 'Majority' : `Tie-breaker ${result.tieBreakerId}`}: ${decided?.rationale ?? ''}`,
      details: {
        decidedBy: result.decidedBy,
        tally: result.tally,
        tieBreaker: result.tieBreakerId,
        voters: result.voters.map((voter) => ({ id: voter.voterId, label: voter.label })),
        promptVersion: result.promptVersion,
      },
    },
  ];
}

async function pool<T>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

/** Labels every flipped rep of a study (see the module comment). */
export async function classifyStudy(
  store: Store,
  studyId: string,
  options: ClassifyOptions = {},
): Promise<ClassifySummary> {
  const config = options.ensemble;
  const env = options.env ?? process.env;
  const providers = new Map<string, ModelProvider>();
  if (config) {
    for (const voter of [...config.voters, tieBreakerOf(config).voter]) {
      if (!providers.has(voter.id))
        providers.set(voter.id, options.providerFor?.(voter) ?? providerForVoter(voter, env));
    }
  }
  const providerOf = (voter: Voter) => providers.get(voter.id) as ModelProvider;
  const gold = config
    ? await deriveStudyGold(store, studyId, config, {
        providerFor: providerOf,
        ...(options.force ? { force: true } : {}),
        ...(options.retry ? { retry: options.retry } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      })
    : null;
  const flips = findFlippedReps(store, studyId);
  const summary: ClassifySummary = {
    flips: flips.length,
    harmful: flips.filter((flip) => flip.kind === 'harmful').length,
    helpful: flips.filter((flip) => flip.kind === 'helpful').length,
    diff: {},
    truth: 0,
    gold,
    ensemble: null,
  };
  const pairs = new Map<string, FlipPair>(flips.map((flip) => [flip.repId, loadPair(store, flip)]));
  const labels = [...pairs.values()].flatMap((pair) => diffLabels(store, pair));
  for (const label of labels) {
    if (label.source === 'diff') count(summary.diff, label.label);
    else summary.truth += 1;
  }
  saveLabels(store, labels);
  if (!config) return summary;

  const pending = flips.filter(
    (flip: FlippedRep) =>
      options.force ||
      !labelsForRep(store, flip.repId).some((label) => label.source === 'ensemble'),
  );
  const ensemble = {
    asked: 0,
    skipped: flips.length - pending.length,
    labels: {},
    invalidVotes: 0,
  };
  summary.ensemble = ensemble;
  await pool(pending, config.concurrency, async (flip) => {
    options.signal?.throwIfAborted();
    const result = await runEnsemble(metaCase(store, pairs.get(flip.repId) as FlipPair), config, {
      providerFor: providerOf,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // Voters of an earlier configuration go: the stored voters are those behind this label.
    replaceRepLabels(store, flip.repId, 'voter:', ensembleLabels(flip.repId, result));
    ensemble.asked += 1;
    count(ensemble.labels, result.label);
    ensemble.invalidVotes += result.voters.filter((voter) => voter.label === 'invalid').length;
    options.onProgress?.(ensemble.asked, pending.length);
  });
  return summary;
}
