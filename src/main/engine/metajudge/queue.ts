/**
 * A blind labelling queue for one annotator (App. P: "the ensemble's own labels were withheld,
 * so each annotation is blind to the classifier and to the other annotators"): the study's
 * flipped reps this annotator has not labelled, in an order of their own (seeded by the
 * annotator's name, so two annotators do not see the same sequence), with no label of any
 * source attached. Also: storing one validated human label, and the flips with every label
 * stored for them (the results view).
 */
import { EngineError } from '../errors';
import { hashString } from '../random';
import { type Store } from '../store';
import { ANNOTATOR_PATTERN, listStudyLabels, saveLabels } from '../store/faces/labels';
import { findFlippedRep, findFlippedReps, type FlippedRep } from './flipped';
import {
  OVER_TRUST_SUB_MODES,
  labelsFor,
  type FlipKind,
  type MechanismLabel,
} from '../mechanism-labels';

/** One flip to label; what the annotator sees comes from loadFlipPairView(repId). */
export interface QueueEntry {
  repId: string;
  itemId: string;
  judgeId: string;
  dataset: string;
  kind: FlipKind;
}

/** The annotator's queue and progress. */
export interface LabellingQueue {
  annotator: string;
  /** Flips still to label, in the annotator's order. */
  entries: QueueEntry[];
  /** Flips this annotator has labelled. */
  done: number;
  total: number;
}

/** The flips `annotator` has yet to label in a study, optionally of one kind only. */
export function labellingQueue(
  store: Store,
  studyId: string,
  annotator: string,
  kind?: FlipKind,
): LabellingQueue {
  const flips = findFlippedReps(store, studyId).filter((flip) => !kind || flip.kind === kind);
  const labelled = new Set(
    listStudyLabels(store, studyId, [`human:${annotator}`]).map((label) => label.repId),
  );
  const order = (repId: string) => hashString(`${annotator}\u0000${repId}`);
  const entries = flips
    .filter((flip) => !labelled.has(flip.repId))
    .sort((a, b) => order(a.repId) - order(b.repId) || a.repId.localeCompare(b.repId))
    .map(({ repId, itemId, judgeId, dataset, kind: flipKind }) => ({
      repId,
      itemId,
      judgeId,
      dataset,
      kind: flipKind,
    }));
  return { annotator, entries, done: flips.length - entries.length, total: flips.length };
}

/**
 * Why a human label is not acceptable, or null: the annotator name, a mechanism of the flip's
 * kind (harmful §3.3, helpful App. F), and a sub-mode only with over-trust (App. A.4).
 */
export function humanLabelProblem(
  kind: FlipKind,
  annotator: string,
  label: string,
  subMode: string,
): string | null {
  if (!ANNOTATOR_PATTERN.test(annotator))
    return `annotator "${annotator}" is not a name (letters, digits, space, ".", "_", "-")`;
  const allowed = labelsFor(kind);
  if (!(allowed as readonly string[]).includes(label))
    return `label "${label}" is not a ${kind}-flip mechanism (${allowed.join(', ')})`;
  if (
    subMode &&
    (label !== 'over_trust' || !(OVER_TRUST_SUB_MODES as readonly string[]).includes(subMode))
  )
    return `sub_mode "${subMode}" is allowed only with over_trust (${OVER_TRUST_SUB_MODES.join(', ')})`;
  return null;
}

/** One human label, as the annotate view submits it. */
export interface HumanLabelInput {
  repId: string;
  annotator: string;
  label: string;
  subMode?: string;
  rationale?: string;
}

/** Stores one annotator's label of a flipped rep (replacing their earlier one); bad_request if invalid. */
export function saveHumanLabel(store: Store, input: HumanLabelInput): void {
  const flip = findFlippedRep(store, input.repId);
  if (!flip)
    throw new EngineError('bad_request', `Rep ${input.repId} is not a flipped rep of any study.`);
  const problem = humanLabelProblem(flip.kind, input.annotator, input.label, input.subMode ?? '');
  if (problem) throw new EngineError('bad_request', `Cannot store the label: ${problem}.`);
  saveLabels(store, [
    {
      repId: input.repId,
      source: `human:${input.annotator}`,
      label: input.label as MechanismLabel,
      subMode: input.subMode || null,
      rationale: input.rationale ?? '',
    },
  ]);
}

/** A flipped rep with every label stored for it (the results view; not for blind annotation). */
export interface FlipWithLabels extends FlippedRep {
  labels: Record<string, { label: string; subMode: string | null }>;
}

/** Every flipped rep of a study with its labels by source. */
export function flipsWithLabels(store: Store, studyId: string): FlipWithLabels[] {
  const bySource = new Map<string, FlipWithLabels['labels']>();
  for (const label of listStudyLabels(store, studyId)) {
    const entry = bySource.get(label.repId) ?? {};
    entry[label.source] = { label: label.label, subMode: label.subMode };
    bySource.set(label.repId, entry);
  }
  return findFlippedReps(store, studyId).map((flip) => ({
    ...flip,
    labels: bySource.get(flip.repId) ?? {},
  }));
}
