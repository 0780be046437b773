/**
 * Renders a cue family's template for one direction, readout and placement: the template's
 * known slots filled (compose.ts `fillCuePlaceholders`), nothing else substituted. A narration
 * family renders its transform: `turns` narration texts, inserted by the narration placement.
 */
import { familyAllows, type CueFamily } from '../../../../../shared/cue-family';
import type { CueDirection, CueSpec } from '../../../../../shared/cue-spec';

/** The narration turns a narration family inserts (default 6). */
export const DEFAULT_NARRATION_TURNS = 6;

/** A family cue before its slots are filled. */
export interface FamilyTemplates {
  /** The texts: one for a sentence family, `turns` for a narration family. */
  texts: string[];
  label: string;
}

/** Picks the template(s) a family cue spec names; throws a descriptive Error. */
export function familyTemplates(
  family: CueFamily,
  spec: Extract<CueSpec, { kind: 'family' }>,
  direction: CueDirection,
  placement: string | undefined,
): FamilyTemplates {
  if (placement !== undefined && !familyAllows(family, placement)) {
    throw new Error(
      `Cue family "${family.id}" cannot be placed at "${placement}"; it allows ${family.placements.join(', ')}.`,
    );
  }
  const index = spec.template ?? 0;
  const cues = family.templates[direction];
  if (index >= cues.length) {
    throw new Error(
      `Cue family "${family.id}" has ${cues.length} ${direction} template(s); template ${index} does not exist (templates count from 0).`,
    );
  }
  // A placebo is matched to the cue it replaces: the placebo list is read in step, wrapping.
  const list = spec.placebo ? family.templates.placebo : cues;
  const start = spec.placebo ? index % list.length : index;
  const label = `${family.name}${spec.placebo ? ' · placebo' : ''} · template ${index + 1} · ${direction}`;
  if (family.form === 'narration') {
    const turns = family.turns ?? DEFAULT_NARRATION_TURNS;
    const texts = Array.from(
      { length: turns },
      (_, turn) => list[(start + turn) % list.length] ?? '',
    );
    return { texts, label };
  }
  return { texts: [list[start] ?? ''], label };
}
