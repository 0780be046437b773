/**
 * A study's conditions: the uncued control, then every cue × placement × mitigation set not
 * dropped. A condition's key is stable text, so jobs, reports and the window agree on it.
 */
import { cuePlaceable } from '../../../shared/cue-family';
import { findCueFamily } from '../judge';
import type { CueSpec } from '../../../shared/cue-spec';
import { studyDimensions, type StudySpec } from '../../../shared/study-spec';
import {
  baseConditionKey,
  conditionKey,
  controlKeyOf,
  cueKey,
  DIMENSION_MARK,
  isUncuedControlKey,
  uncuedKey,
  uncuedRepeatKey,
  type StudyCondition,
} from '../../../shared/condition-keys';

// The keys and the condition shape live in src/shared so the window computes the very same
// ones and the engine's lower modules (metajudge, reports) need not import the runner.
export {
  baseConditionKey,
  conditionKey,
  controlKeyOf,
  cueKey,
  isUncuedControlKey,
  uncuedKey,
  uncuedRepeatKey,
};
export type { StudyCondition };

/** True for the control arm and every mitigated control: conditions without a cue. */
export function isControl(condition: StudyCondition): boolean {
  return condition.cue === null;
}

/**
 * The mitigated controls (§3.4 leaves open whether the control ran the mitigation): with
 * `arms.mitigatedControl`, one uncued arm per non-empty mitigation set, keyed
 * `uncued+MITIGATION` as the mitigations table pairs them (reports/tables-paired.ts).
 */
function mitigatedControls(spec: StudySpec, dropped: ReadonlySet<string>): StudyCondition[] {
  if (!spec.arms.mitigatedControl) return [];
  const out = new Map<string, StudyCondition>();
  for (const mitigations of spec.arms.mitigations) {
    if (mitigations.length === 0) continue;
    const ids = mitigations.map((entry) => entry.id);
    const key = `${uncuedKey}+${ids.join('+')}`;
    if (dropped.has(key) || out.has(key)) continue;
    const label = `uncued + ${ids.join(' + ')} (mitigated control)`;
    out.set(key, { key, label, cue: null, placement: null, mitigations });
  }
  return [...out.values()];
}

/**
 * With `arms.uncuedRepeat`, the uncued control once more (`uncued+repeat`): same reps, fresh
 * draws (execute.ts gives its reps their own rep key), a test-retest noise floor for "flips
 * beyond repeat" (analysis/repeat.ts). A control, so it is queued with the others at once.
 */
function uncuedRepeat(spec: StudySpec, dropped: ReadonlySet<string>): StudyCondition[] {
  if (!spec.arms.uncuedRepeat || dropped.has(uncuedRepeatKey)) return [];
  const label = 'uncued repeat (test-retest)';
  return [{ key: uncuedRepeatKey, label, cue: null, placement: null, mitigations: [] }];
}

/**
 * True when `cue` can go at `placement`: a family only where its file allows (the spec's copy,
 * else the registry's; an unknown family is refused when the study is created), the narration
 * transform only for a family. Other pairs are left out of the product, not refused, so one study can cross
 * families that allow different placements.
 */
export function placeable(spec: StudySpec, cue: CueSpec, placement: string): boolean {
  if (cue.kind !== 'family') return cuePlaceable(cue, placement);
  const own = spec.cueFamilies?.find((family) => family.id === cue.family);
  if (own) return cuePlaceable(cue, placement, [own]);
  // A spec not yet created (an estimate, the builder's draft) uses the registry's family.
  try {
    return cuePlaceable(cue, placement, [findCueFamily(cue.family)]);
  } catch {
    return true;
  }
}

/**
 * Every condition of a spec: for its own dimension, controls first (uncued, then mitigated
 * controls, then the uncued repeat), then the cued arms in spec order; then the same again for each extra dimension,
 * keys marked `#dimension` (App. G: one study over several dimensions, Fig. 17).
 */
export function expandConditions(spec: StudySpec): StudyCondition[] {
  const [, ...extra] = studyDimensions(spec);
  const base = dimensionConditions(spec);
  return [
    ...base,
    ...extra.flatMap((dimension) =>
      base.map((condition) => ({
        ...condition,
        key: `${condition.key}${DIMENSION_MARK}${dimension}`,
        label: `${condition.label} · ${dimension}`,
        dimension,
      })),
    ),
  ];
}

function dimensionConditions(spec: StudySpec): StudyCondition[] {
  const dropped = new Set(spec.arms.drop);
  const conditions: StudyCondition[] = [
    { key: uncuedKey, label: 'uncued (control)', cue: null, placement: null, mitigations: [] },
    ...mitigatedControls(spec, dropped),
    ...uncuedRepeat(spec, dropped),
  ];
  const seen = new Set<string>();
  for (const cue of spec.arms.cues) {
    for (const placement of spec.arms.placements.filter((name) => placeable(spec, cue, name))) {
      for (const mitigations of spec.arms.mitigations) {
        const key = conditionKey(cue, placement, mitigations);
        if (dropped.has(key) || seen.has(key)) continue;
        seen.add(key);
        const mitigationLabel = mitigations.length
          ? ` + ${mitigations.map((entry) => entry.id).join(' + ')}`
          : '';
        conditions.push({
          key,
          label: `${cueKey(cue)} at ${placement}${mitigationLabel}`,
          cue,
          placement,
          mitigations,
        });
      }
    }
  }
  return conditions;
}
