/**
 * Condition keys: the stable text that names an arm of a study (`uncued`,
 * `preset:strong@system+guard`, `axes:source=reviewer@user`, `custom:1a2b3c4d@system`). Jobs,
 * reports, `arms.drop` and the builder's grid all name conditions by these keys, so the engine
 * and the window use this one module: a second copy could drift by a byte and drop
 * the wrong cell.
 */
import type { CueSpec, MitigationSpec } from './cue-spec';

/** The key of the control arm. */
export const uncuedKey = 'uncued';

/**
 * The key of the uncued repeat (`arms.uncuedRepeat`): the same uncued condition run a second
 * time with fresh draws, a test-retest noise floor. It reads as a control everywhere a mitigated
 * control (`uncued+MITIGATION`) does, so no table pairs it as a cued arm; a mitigation may not be
 * named `repeat` beside it (study-spec.ts).
 */
export const uncuedRepeatKey = `${uncuedKey}+repeat`;

/** 32-bit FNV-1a hash of a string's UTF-16 code units (also seeds the engine's randomness). */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A short stable name for a cue spec, e.g. `preset:weak`, `axes:source=reviewer`. */
export function cueKey(cue: CueSpec): string {
  switch (cue.kind) {
    case 'preset':
      return `preset:${cue.preset}`;
    case 'axes': {
      const axes = Object.entries(cue.axes)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([axis, level]) => `${axis}=${String(level)}`);
      return `axes:${axes.join(',') || 'default'}`;
    }
    case 'custom': {
      const hash = hashString(cue.severity + '\u0000' + (cue.leniency ?? ''));
      return `custom:${hash.toString(16).padStart(8, '0')}`;
    }
    case 'family':
      return `family:${cue.family}${cue.placebo ? '/placebo' : ''}${cue.template ? `/${cue.template}` : ''}`;
  }
}

/** The stable key of a cued condition. */
export function conditionKey(
  cue: CueSpec,
  placement: string,
  mitigations: readonly MitigationSpec[],
): string {
  const mitigation = mitigations.map((spec) => spec.id).join('+');
  return `${cueKey(cue)}@${placement}${mitigation ? `+${mitigation}` : ''}`;
}

/** The key of a mitigation set, for column headers: `none` or `guard+cite-evidence`. */
export function mitigationSetKey(mitigations: readonly MitigationSpec[]): string {
  return mitigations.map((spec) => spec.id).join('+') || 'none';
}

/** One arm of a study. */
export interface StudyCondition {
  /** 'uncued', or e.g. `preset:strong@system+guard`. */
  key: string;
  label: string;
  cue: CueSpec | null;
  placement: string | null;
  mitigations: MitigationSpec[];
  /** The dimension judged; absent: the study's `dimension`. */
  dimension?: string;
}

/** Marks a condition of an extra dimension: `uncued#state_correctness`. */
export const DIMENSION_MARK = '#';

/** The condition key without its dimension mark: what tables pair and print. */
export function baseConditionKey(key: string): string {
  const at = key.indexOf(DIMENSION_MARK);
  return at === -1 ? key : key.slice(0, at);
}

/** The uncued control key of a dimension (the study's own dimension has the plain key). */
export function controlKeyOf(conditionKey: string): string {
  const at = conditionKey.indexOf(DIMENSION_MARK);
  return at === -1 ? uncuedKey : `${uncuedKey}${conditionKey.slice(at)}`;
}

/** True for the uncued control of any dimension (not a mitigated control). */
export function isUncuedControlKey(key: string): boolean {
  return controlKeyOf(key) === key && baseConditionKey(key) === uncuedKey;
}
