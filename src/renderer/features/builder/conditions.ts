/**
 * Condition keys as the engine writes them (src/main/engine/runner/conditions.ts, copied
 * because the renderer may not import the engine). `arms.drop` names conditions by these keys,
 * so they must match the engine's byte for byte; the e2e test drops a cell and checks that the
 * engine's estimate loses exactly that condition.
 */
import type { CueSpec, MitigationSpec } from '../../../shared/cue-spec';

/** The key of the control arm. */
export const uncuedKey = 'uncued';

/** One cell of the condition grid. */
export interface DraftCondition {
  /** e.g. `preset:strong@system+guard`. */
  key: string;
  cue: CueSpec;
  placement: string;
  mitigations: MitigationSpec[];
  /** True when `arms.drop` leaves this cell out. */
  dropped: boolean;
}

/** FNV-1a over UTF-16 code units, as the engine's `hashString`. */
function hashString(text: string): number {
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

/** The arms part of a spec, as the grid needs it. */
export interface ArmsInput {
  cues: readonly CueSpec[];
  placements: readonly string[];
  mitigations: readonly (readonly MitigationSpec[])[];
  drop: readonly string[];
}

/** Every cued cell in spec order (cue, then placement, then mitigation set), duplicates once. */
export function expandCuedConditions(arms: ArmsInput): DraftCondition[] {
  const dropped = new Set(arms.drop);
  const seen = new Set<string>();
  const out: DraftCondition[] = [];
  for (const cue of arms.cues) {
    for (const placement of arms.placements) {
      for (const mitigations of arms.mitigations) {
        const key = conditionKey(cue, placement, mitigations);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ key, cue, placement, mitigations: [...mitigations], dropped: dropped.has(key) });
      }
    }
  }
  return out;
}

/** How many conditions the engine will run: the control plus every cell not dropped. */
export function countConditions(arms: ArmsInput): number {
  return 1 + expandCuedConditions(arms).filter((condition) => !condition.dropped).length;
}
