/**
 * The mechanism vocabulary of the meta-judge (§3.3, App. F, N): why a cued rep flipped away
 * from ground truth (harmful) or toward it (helpful). Labels are snake_case ids; the paper's
 * names are in the doc comments. The ids live in src/shared, where the window reads them too.
 */
// The two lists have one name, the one src/shared gives them: §3.3's harmful mechanisms
// (over-trust, hallucination, under-investigation; App. N calls the last
// `early_termination`) and App. F's helpful ones (better investigation, over-trust on a helpful
// flip as lucky deference, evidence re-weighting).
import { harmfulLabelIds, helpfulLabelIds, type FlipKind } from '../../shared/mechanism-labels';

export type { FlipKind };

/** Every mechanism a classifier or an annotator may assign. */
export const MECHANISM_LABELS = [...harmfulLabelIds, ...helpfulLabelIds] as const;

/** One mechanism. */
export type MechanismLabel = (typeof MECHANISM_LABELS)[number];

/**
 * What a label row may hold: a mechanism, `invalid` (a voter whose answer could not be read:
 * stored, never guessed), or `none` (a synthetic rep whose flip was not the cue's doing).
 */
export type StoredLabel = MechanismLabel | 'invalid' | 'none';

/** Every StoredLabel, for validation. */
export const STORED_LABELS: readonly StoredLabel[] = [...MECHANISM_LABELS, 'invalid', 'none'];

/**
 * App. A.4: within over-trust, bare deference vs evidence re-weighting (same evidence, read
 * differently, no deference language).
 */
export const OVER_TRUST_SUB_MODES = ['deference', 'evidence_reweighting'] as const;

/** One over-trust sub-mode. */
export type OverTrustSubMode = (typeof OVER_TRUST_SUB_MODES)[number];

/** Who assigned a label. */
export type LabelSource = 'diff' | 'ensemble' | 'truth' | `voter:${string}` | `human:${string}`;

/** The mechanisms a flip of this kind can have. */
export function labelsFor(kind: FlipKind): readonly MechanismLabel[] {
  return kind === 'harmful' ? harmfulLabelIds : helpfulLabelIds;
}

/** True when `value` is something a label row may hold. */
export function isStoredLabel(value: string): value is StoredLabel {
  return (STORED_LABELS as readonly string[]).includes(value);
}

/** True when `value` is a label source. */
export function isLabelSource(value: string): value is LabelSource {
  return (
    value === 'diff' ||
    value === 'ensemble' ||
    value === 'truth' ||
    /^voter:.+/.test(value) ||
    /^human:.+/.test(value)
  );
}

/** A binary verdict. */
export type Outcome = 'pass' | 'fail';
