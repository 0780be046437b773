/**
 * The flipped reps of a study (§3.1, App. F, App. H): every cued rep whose binary verdict
 * differs from its item's uncued majority for the same judge. It is harmful when that majority
 * matched the gold label (§3.1), helpful when it did not (App. F). The gold of a binary
 * dimension other than task success is the meta-judge consensus (App. G, store/flip-rows.ts). As App. H prescribes, reps
 * are not collapsed by majority: every flipped rep is its own case, classified individually.
 *
 * Only cued reps whose cue points against the uncued majority count (the design of §3.1; under
 * a `both` / fixed-direction policy some cues point the same way and cannot flip it). Graded
 * dimensions flip by a threshold toward the cue instead (App. G, flipped-graded.ts); their flips
 * join the binary ones so Fig. 17's graded cells are classified like the rest.
 */
import { controlKeyOf } from '../../../shared/condition-keys';
import { type Store } from '../store';
import { cuedBinaryReps, repOrigin, uncuedReps } from '../store/faces/reps';
import type { FlipKind, Outcome } from '../mechanism-labels';
import { persistedFlipKinds, persistedFlips, type FlipKindEntry } from './flip-list-cache';
import { findGradedFlips } from './flipped-graded';

export { studyGradedThreshold } from './flipped-graded';

/** One uncued rep of the same item and judge. */
export interface UncuedTwin {
  repId: string;
  /** Rep index within the uncued arm (1-based, as in jobs.rep). */
  rep: number;
  /** Its binary verdict; null when it gave none. */
  verdict: Outcome | null;
}

/** One flipped cued rep, with everything needed to compare it with its uncued run. */
export interface FlippedRep {
  studyId: string;
  repId: string;
  itemId: string;
  judgeId: string;
  dataset: string;
  conditionKey: string;
  direction: 'severity' | 'leniency';
  /** Rep index within its cued arm (1-based). */
  rep: number;
  /** The dimension the rep judged (App. G; a study may judge several, Fig. 17). */
  dimension: string;
  gold: Outcome;
  uncuedMajority: Outcome;
  cuedVerdict: Outcome;
  kind: FlipKind;
  /** The uncued reps of the same item and judge, by rep index. */
  twins: UncuedTwin[];
  /** The twin the classifiers compare against (see chooseTwin). */
  twinRepId: string;
  simulated: boolean;
}

function outcomeOf(value: unknown): Outcome | null {
  return value === 'pass' || value === 'fail' ? value : null;
}

/**
 * The uncued run a flipped rep is compared with ("its own uncued run", App. N): the twin with
 * the same rep index when that twin reached the uncued majority, else the lowest-index twin
 * that did. The flip is defined against the majority, so the comparison run must hold it.
 */
export function chooseTwin(
  twins: readonly UncuedTwin[],
  rep: number,
  majority: Outcome,
): UncuedTwin | null {
  const agreeing = twins.filter((twin) => twin.verdict === majority);
  return agreeing.find((twin) => twin.rep === rep) ?? agreeing[0] ?? null;
}

/** Narrows findFlippedReps to one item (a flip and its twins share it). */
export interface FlipScope {
  itemId: string;
}

/**
 * Every flipped cued rep of a study, ordered by item, judge, condition, direction and rep;
 * with `scope`, only that item's (what one replay needs, without the whole study).
 */
export function findFlippedReps(store: Store, studyId: string, scope?: FlipScope): FlippedRep[] {
  // A whole study's list is kept on disk (flip-list-cache.ts); one item's is quick to find.
  if (scope === undefined)
    return persistedFlips(store, studyId, () => findStudyFlips(store, studyId));
  return findStudyFlips(store, studyId, scope);
}

/** Every flipped rep of a study with its kind, in findFlippedReps' order (the workbench's filter). */
export function studyFlipKinds(store: Store, studyId: string): FlipKindEntry[] {
  return persistedFlipKinds(store, studyId, () => findStudyFlips(store, studyId));
}

function findStudyFlips(store: Store, studyId: string, scope?: FlipScope): FlippedRep[] {
  const cued = cuedBinaryReps(store, studyId, scope?.itemId);
  const twinRows = uncuedReps(store, studyId, scope?.itemId);
  const twinsByItem = new Map<string, UncuedTwin[]>();
  for (const row of twinRows) {
    // Twins are the control of the same dimension, never a mitigated control (§3.4).
    const key = `${row.itemId}\u0000${row.judgeId}\u0000${row.conditionKey}`;
    const list = twinsByItem.get(key) ?? [];
    list.push({ repId: row.repId, rep: row.rep, verdict: outcomeOf(row.verdict) });
    twinsByItem.set(key, list);
  }
  const flips: FlippedRep[] = [];
  for (const row of cued) {
    const verdict = outcomeOf(row.verdict);
    if (verdict === null || verdict === row.majority) continue;
    const opposes = row.direction === (row.majority === 'pass' ? 'severity' : 'leniency');
    if (!opposes) continue;
    const control = controlKeyOf(row.conditionKey);
    const twins = twinsByItem.get(`${row.itemId}\u0000${row.judgeId}\u0000${control}`) ?? [];
    const twin = chooseTwin(twins, row.rep, row.majority);
    if (!twin) continue;
    flips.push({
      studyId,
      repId: row.repId,
      itemId: row.itemId,
      judgeId: row.judgeId,
      dataset: row.dataset,
      conditionKey: row.conditionKey,
      direction: row.direction,
      rep: row.rep,
      dimension: row.dimension,
      gold: row.gold,
      uncuedMajority: row.majority,
      cuedVerdict: verdict,
      kind: row.majority === row.gold ? 'harmful' : 'helpful',
      twins,
      twinRepId: twin.repId,
      simulated: row.simulated,
    });
  }
  const graded = findGradedFlips(store, studyId, scope?.itemId);
  if (graded.length === 0) return flips;
  // One order for both kinds: item, judge, condition, direction, rep (as the binary query's).
  const order = (flip: FlippedRep) =>
    [flip.itemId, flip.judgeId, flip.conditionKey, flip.direction].join('\u0000');
  return [...flips, ...graded].sort((a, b) =>
    order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : a.rep - b.rep,
  );
}

/** The flipped rep with this id, or null when the rep is not a flip of its study. */
export function findFlippedRep(store: Store, repId: string): FlippedRep | null {
  const origin = repOrigin(store, repId);
  if (!origin?.studyId) return null;
  return (
    findFlippedReps(store, origin.studyId, { itemId: origin.itemId }).find(
      (flip) => flip.repId === repId,
    ) ?? null
  );
}
