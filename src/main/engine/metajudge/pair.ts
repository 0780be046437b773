/**
 * A flipped rep beside its uncued twin, ready for the trajectory diff, the meta-judge and the
 * replay view (ARCHITECTURE.md, "A study, end to end", step 6: "any cued run opens beside its
 * uncued twin, aligned, with the divergence point marked; all of it offline from SQLite").
 */
import { EngineError } from '../errors';
import { type Store } from '../store';
import { repSimulationRecord } from '../store/faces/reps';
import { classifyFlip, type DiffResult } from './diff/classify';
import { alignCalls, type AlignedRow } from './diff/trajectory';
import { findFlippedRep, type FlippedRep } from './flipped';
import { loadRunRecord, type RunRecord } from './run-record';
import type { StoredLabel } from '../mechanism-labels';

/** A flipped rep and its twin, loaded. */
export interface FlipPair {
  flip: FlippedRep;
  /** The uncued twin (FlippedRep.twinRepId). */
  baseline: RunRecord;
  cued: RunRecord;
}

/** A pair with the diff and an aligned view of the two investigations, for replay. */
export interface FlipPairView extends FlipPair {
  diff: DiffResult;
  alignment: AlignedRow[];
}

/** Loads a flipped rep and its twin. */
export function loadPair(store: Store, flip: FlippedRep): FlipPair {
  return {
    flip,
    baseline: loadRunRecord(store, flip.twinRepId),
    cued: loadRunRecord(store, flip.repId),
  };
}

/** The trajectory diff of a loaded pair. */
export function diffPair(pair: FlipPair): DiffResult {
  return classifyFlip({
    kind: pair.flip.kind,
    baseline: pair.baseline,
    cued: pair.cued,
    ...(pair.cued.cue ? { cueText: pair.cued.cue.text } : {}),
  });
}

/** A flipped rep beside its twin, diffed and aligned; throws not_found when it is not a flip. */
export function loadFlipPairView(store: Store, repId: string): FlipPairView {
  const flip = findFlippedRep(store, repId);
  if (!flip)
    throw new EngineError(
      'not_found',
      `Rep "${repId}" is not a flipped cued rep of any study (see findFlippedReps).`,
    );
  const pair = loadPair(store, flip);
  return {
    ...pair,
    diff: diffPair(pair),
    alignment: alignCalls(pair.baseline.calls, pair.cued.calls),
  };
}

/**
 * The synthetic judge's true mechanism of a rep (its simulation_json `mechanism`, see
 * simulation/provider.ts SimulationRecord); null for a real model's rep.
 */
export function trueMechanism(store: Store, repId: string): StoredLabel | null {
  const mechanism = repSimulationRecord(store, repId)?.mechanism;
  switch (mechanism) {
    case 'over_trust':
    case 'hallucination':
    case 'under_investigation':
    case 'better_investigation':
    case 'lucky_deference':
    case 'none':
      return mechanism;
    default:
      return null;
  }
}
