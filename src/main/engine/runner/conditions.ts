/**
 * A study's conditions: the uncued control, then every cue × placement × mitigation set not
 * dropped. A condition's key is stable text, so jobs, reports and the window agree on it.
 */
import type { CueSpec, MitigationSpec } from '../../../shared/cue-spec';
import type { StudySpec } from '../../../shared/study-spec';
import { conditionKey, cueKey, uncuedKey } from '../../../shared/condition-keys';

// The keys live in src/shared so the window computes the very same ones (issue 13).
export { conditionKey, cueKey, uncuedKey };

/** One arm of a study. */
export interface StudyCondition {
  /** 'uncued', or e.g. `preset:strong@system+guard`. */
  key: string;
  label: string;
  cue: CueSpec | null;
  placement: string | null;
  mitigations: MitigationSpec[];
}

/** Every condition of a spec, control first, in spec order. */
export function expandConditions(spec: StudySpec): StudyCondition[] {
  const conditions: StudyCondition[] = [
    { key: uncuedKey, label: 'uncued (control)', cue: null, placement: null, mitigations: [] },
  ];
  const dropped = new Set(spec.arms.drop);
  const seen = new Set<string>();
  for (const cue of spec.arms.cues) {
    for (const placement of spec.arms.placements) {
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
