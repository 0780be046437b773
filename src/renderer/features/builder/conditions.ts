/**
 * The builder's condition grid. Its keys come from src/shared/condition-keys.ts, the module
 * the engine uses too: `arms.drop` names conditions by these keys, so they must match the
 * engine's byte for byte (the e2e test drops a cell and checks the engine's estimate).
 */
import { conditionKey, uncuedRepeatKey } from '../../../shared/condition-keys';
import { cuePlaceable, type CueFamily } from '../../../shared/cue-family';
import type { CueSpec, MitigationSpec } from '../../../shared/cue-spec';

export {
  conditionKey,
  cueKey,
  mitigationSetKey,
  uncuedKey,
  uncuedRepeatKey,
} from '../../../shared/condition-keys';

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

/** The arms part of a spec, as the grid needs it. */
export interface ArmsInput {
  cues: readonly CueSpec[];
  placements: readonly string[];
  mitigations: readonly (readonly MitigationSpec[])[];
  drop: readonly string[];
  /** The registry's families: a family cue is crossed only with the placements it allows. */
  families?: readonly Pick<CueFamily, 'id' | 'placements'>[];
  /** The uncued control runs twice (`arms.uncuedRepeat`): a second control. */
  uncuedRepeat?: boolean;
}

/** Every cued cell in spec order (cue, then placement, then mitigation set), duplicates once. */
export function expandCuedConditions(arms: ArmsInput): DraftCondition[] {
  const dropped = new Set(arms.drop);
  const seen = new Set<string>();
  const out: DraftCondition[] = [];
  for (const cue of arms.cues) {
    for (const placement of arms.placements.filter((name) =>
      cuePlaceable(cue, name, arms.families),
    )) {
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

/** The controls the grid shows: the uncued control, and its repeat when asked for. */
export function countControls(arms: ArmsInput): number {
  return arms.uncuedRepeat && !arms.drop.includes(uncuedRepeatKey) ? 2 : 1;
}

/** How many conditions the engine will run: the controls plus every cell not dropped. */
export function countConditions(arms: ArmsInput): number {
  return (
    countControls(arms) +
    expandCuedConditions(arms).filter((condition) => !condition.dropped).length
  );
}
