/**
 * A cue family as data: one file (JSON or YAML) naming a bias, where it comes from, its
 * wordings per direction with a length-matched neutral placebo, the axes it varies and where
 * it may be placed. Built-ins ship in `resources/cue-families/`; a researcher's files sit in
 * `<workspace>/cue-families/` or are imported. A family file is a stranger's input: every
 * field is bounded, and templates may name only the known slots below (nothing else is ever
 * substituted into them).
 */
import { z } from 'zod';

/** Slots a template may name; each is filled by CueLab, never from the family file. */
export const cueFamilySlots = ['{cats}', '{cat}', '[source]'] as const;

/** Most characters of one template, and most templates per direction. */
export const CUE_FAMILY_LIMITS = {
  templateChars: 2000,
  templatesPerDirection: 12,
  fileBytes: 256 * 1024,
  descriptionChars: 4000,
} as const;

/**
 * Placements a family may allow: the App. K placements, `assistant-xN` / `assistant-at-K`
 * written with the letters N and K (any count / position), the agent's own voice
 * (`agent-final`: appended to the agent's last message; `agent-tool-output`: a tool output the
 * agent printed), and `narration` (a trajectory transform: content-free narration turns).
 */
export const familyPlacementSchema = z.enum([
  'system',
  'user',
  'assistant',
  'assistant-xN',
  'assistant-at-K',
  'agent-final',
  'agent-tool-output',
  'narration',
]);

const slotPattern = /\{[^{}\s]{0,40}\}|\[[a-z]{1,20}\]/g;

/** Slot-like tokens (`{x}`, `[x]`) in a template that CueLab does not fill. */
export function unknownSlots(template: string): string[] {
  const known: readonly string[] = cueFamilySlots;
  return [...template.matchAll(slotPattern)]
    .map((match) => match[0])
    .filter((slot) => !known.includes(slot));
}

/** True when `text` holds a control character other than tab and line feed. */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) return true;
  }
  return false;
}

const templateSchema = z
  .string()
  .trim()
  .min(1, 'a template cannot be empty')
  .max(CUE_FAMILY_LIMITS.templateChars, `at most ${CUE_FAMILY_LIMITS.templateChars} characters`)
  .refine((text) => !hasControlCharacter(text), {
    message: 'control characters are not allowed in a template',
  })
  .superRefine((text, context) => {
    const unknown = unknownSlots(text);
    if (unknown.length > 0)
      context.addIssue({
        code: 'custom',
        message: `unknown slot ${unknown.join(', ')} (a template may use only ${cueFamilySlots.join(', ')})`,
      });
  });

const templateListSchema = z
  .array(templateSchema)
  .min(1, 'needs at least one template')
  .max(
    CUE_FAMILY_LIMITS.templatesPerDirection,
    `at most ${CUE_FAMILY_LIMITS.templatesPerDirection} templates`,
  );

/** Words as the placebo's length match counts them. */
export function familyWordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

/**
 * A family file. `form: sentence` places one template as a cue; `form: narration` is a
 * trajectory transform: its templates are content-free narration lines inserted as `turns`
 * agent turns spread through the trajectory (the verbosity bias), and it allows only the
 * `narration` placement.
 */
export const cueFamilySchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,47}$/, 'lower-case letters, digits and dashes, at most 48'),
    name: z.string().trim().min(1).max(120),
    description: z.string().trim().min(1).max(CUE_FAMILY_LIMITS.descriptionChars),
    /** Where the bias and its wording come from (paper, section, URL). */
    source: z.string().trim().min(1).max(1000),
    form: z.enum(['sentence', 'narration']).default('sentence'),
    /** Narration only: how many narration turns the transform inserts (default 6). */
    turns: z.number().int().min(1).max(50).optional(),
    templates: z.strictObject({
      severity: templateListSchema,
      leniency: templateListSchema,
      /** Neutral text of matched length: asserts nothing about the verdict. */
      placebo: templateListSchema,
    }),
    /** What the family varies (free labels, e.g. `authority`, `consensus-size`). */
    axes: z.array(z.string().trim().min(1).max(60)).max(20).default([]),
    placements: z.array(familyPlacementSchema).min(1, 'allow at least one placement'),
    /**
     * The synthetic judge's susceptibility: log-odds added to its reference cell (§3.1 strong
     * cue). A hypothesis CueLab simulates, never a measurement; default 0.
     */
    simulatedShift: z.number().min(-10).max(10).optional(),
  })
  .superRefine((family, context) => {
    const narration = family.form === 'narration';
    family.placements.forEach((placement, index) => {
      if (narration !== (placement === 'narration'))
        context.addIssue({
          code: 'custom',
          path: ['placements', index],
          message: narration
            ? 'a narration family allows only the "narration" placement'
            : '"narration" is only for families with form: narration',
        });
    });
    if (!narration && family.turns !== undefined)
      context.addIssue({ code: 'custom', path: ['turns'], message: 'only for form: narration' });
    const cueWords = [...family.templates.severity, ...family.templates.leniency].map(
      familyWordCount,
    );
    const mean = cueWords.reduce((sum, words) => sum + words, 0) / Math.max(1, cueWords.length);
    family.templates.placebo.forEach((text, index) => {
      const words = familyWordCount(text);
      if (words < mean / 2 || words > mean * 2)
        context.addIssue({
          code: 'custom',
          path: ['templates', 'placebo', index],
          message: `a placebo must match the cues' length: ${words} words against a mean of ${mean.toFixed(1)}`,
        });
    });
  });

/** The placement pattern of a family's `placements` that a placement name falls under. */
export function familyPlacementOf(placement: string): string {
  if (/^assistant-x\d+$/.test(placement)) return 'assistant-xN';
  if (/^assistant-at-\d+$/.test(placement)) return 'assistant-at-K';
  return placement;
}

/** True when the family may be placed at `placement` (a placement name of a spec). */
export function familyAllows(family: Pick<CueFamily, 'placements'>, placement: string): boolean {
  return (family.placements as readonly string[]).includes(familyPlacementOf(placement));
}

/**
 * True when `cue` can go at `placement`: a family cue only where its family allows (a family
 * not in `families` is let through; the engine checks it when the study is created), the
 * narration transform only for a family. The engine's condition product and the builder's
 * grid both leave other pairs out, so one study can cross families that allow different
 * placements.
 */
export function cuePlaceable(
  cue: { kind: string; family?: string },
  placement: string,
  families: readonly Pick<CueFamily, 'id' | 'placements'>[] = [],
): boolean {
  if (cue.kind !== 'family') return placement !== 'narration';
  const family = families.find((candidate) => candidate.id === cue.family);
  return family ? familyAllows(family, placement) : true;
}

/** A validated cue family. */
export type CueFamily = z.output<typeof cueFamilySchema>;

/** A family as the registry lists it: where it came from. */
export interface CueFamilyEntry {
  family: CueFamily;
  origin: 'builtin' | 'workspace' | 'study';
}
