/**
 * Cues and mitigations as data (study specs, the renderer's builder, the CLI). Only the shapes
 * live here; the wordings are built in the engine (src/main/engine/judge/cues, /mitigations)
 * from the paper constants. Paper: "Grounded but Not Immune" (§3.1, §3.2, §3.4, App. B, E, K).
 */
import { z } from 'zod';

/** Which way a cue pushes: 'severity' asserts failure / errors present, 'leniency' the reverse (§3.2). */
export const cueDirectionSchema = z.enum(['severity', 'leniency']);

/** §3.2 framing: assert a belief, or comply-direct the judge to verify (Table 2 "Mode"). */
export const cueFramingSchema = z.enum(['belief', 'compliance']);

/** §3.2 grammatical form, crossed with framing (Table 2 "Form"). */
export const cueFormSchema = z.enum(['declarative', 'imperative']);

/** §3.2 authority source, spelled as Table 3's rows ("prior LLM-judge" keeps the paper's hyphen). */
export const cueSourceSchema = z.enum([
  'domain expert',
  'reviewer',
  'unattributed',
  'automated checker',
  'prior LLM-judge',
]);

/** §3.2 decisiveness, Table 4's four modalities, most to least decisive. */
export const cueDecisivenessSchema = z.enum(['definitely', 'likely', 'appears', 'might']);

/**
 * Cue strength. 'strong' and 'weak' follow App. E (a confident expert assessment vs a hedged
 * remark that acknowledges limited review); 'placebo' is §3.2's length-matched placebo and
 * 'null-source' its "note that names a source but asserts nothing". Neither of the last two
 * carries verdict information, so framing, form, decisiveness and direction do not change them.
 */
export const cueStrengthSchema = z.enum(['strong', 'weak', 'placebo', 'null-source']);

/**
 * A cue composed from axes. Every axis is optional; an omitted axis takes its value from
 * `cueAxisDefaults`, the paper's strongest cell.
 */
export const cueAxesSchema = z.strictObject({
  framing: cueFramingSchema.optional(),
  form: cueFormSchema.optional(),
  source: cueSourceSchema.optional(),
  decisiveness: cueDecisivenessSchema.optional(),
  strength: cueStrengthSchema.optional(),
});

/**
 * Defaults: belief / declarative / domain expert / definitely / strong. On the binary readout
 * this cell is the §3.1 cue itself; on error attribution it is App. K's "domain-expert,
 * decisive, all-categories pre-tag".
 */
export const cueAxisDefaults: Readonly<CompleteCueAxes> = {
  framing: 'belief',
  form: 'declarative',
  source: 'domain expert',
  decisiveness: 'definitely',
  strength: 'strong',
};

/** How a study names its cue: a preset wording, a composed cell, or free text. */
export const cueSpecSchema = z.discriminatedUnion('kind', [
  /** A named preset (engine: cues/presets.ts), e.g. 'strong', 'weak', 'table3-reviewer'. */
  z.strictObject({ kind: z.literal('preset'), preset: z.string().min(1) }),
  /** A cell of the axis grid (engine: cues/compose.ts). */
  z.strictObject({ kind: z.literal('axes'), axes: cueAxesSchema }),
  /**
   * Free text. May use `{cats}`, `{cat}` (error-attribution readouts only) and `[source]`.
   * Without `leniency` the cue can only run in the severity direction.
   */
  z.strictObject({
    kind: z.literal('custom'),
    severity: z.string().trim().min(1),
    leniency: z.string().trim().min(1).optional(),
  }),
  /**
   * A template of a cue family (shared/cue-family.ts) by id; `template` picks one of the
   * direction's templates (0-based), `placebo` runs the family's length-matched placebo.
   */
  z.strictObject({
    kind: z.literal('family'),
    family: z.string().regex(/^[a-z0-9][a-z0-9-]{0,47}$/, 'a cue family id'),
    template: z.number().int().min(0).max(50).optional(),
    placebo: z.boolean().optional(),
  }),
]);

/**
 * Where the cue goes (App. K, Table 8): 'system' | 'user' | 'assistant' (one turn at the end)
 * | 'assistant-xN' (N ≥ 1 scattered turns; the paper uses 5 and 25) | 'assistant-at-K' (one
 * turn after message K). CueLab's own, not the paper's: the agent's voice, 'agent-final' (the
 * cue ends the agent's last message) and 'agent-tool-output' (a tool output the agent printed
 * at the end), and 'narration' (a narration family's trajectory transform). The engine's
 * `parsePlacement` turns a name into a placement.
 */
export const placementNameSchema = z
  .string()
  .regex(
    /^(system|user|assistant|assistant-x[1-9]\d*|assistant-at-\d+|agent-final|agent-tool-output|narration)$/,
    "expected 'system', 'user', 'assistant', 'assistant-xN' (N ≥ 1), 'assistant-at-K', " +
      "'agent-final', 'agent-tool-output' or 'narration'",
  );

/**
 * The four §3.4 mitigations CueLab ships (our wordings; the paper prints none of them), and
 * commit-first, CueLab's own direction-aware mitigation (not the paper's).
 */
export const builtinMitigationIdSchema = z.enum([
  'guard',
  'cite-evidence',
  'learned-skill',
  'sufficiency-gate',
  'commit-first',
]);

/**
 * A mitigation: a built-in, or the researcher's own prompt text (appended to the judge's system
 * prompt) and/or gate prompt (a second, no-tool audit of FAIL verdicts, as §3.4's gate).
 */
export const mitigationSpecSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('builtin'), id: builtinMitigationIdSchema }),
  z
    .strictObject({
      kind: z.literal('custom'),
      /** Recorded with every rep; must not collide with another mitigation's id. */
      id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lower-case letters, digits and dashes'),
      label: z.string().trim().min(1),
      systemText: z.string().trim().min(1).optional(),
      gatePrompt: z.string().trim().min(1).optional(),
    })
    .refine((spec) => spec.systemText !== undefined || spec.gatePrompt !== undefined, {
      message: 'a custom mitigation needs systemText, gatePrompt or both',
    }),
]);

/** 'severity' (asserts failure / errors present) or 'leniency' (asserts success / none present). */
export type CueDirection = z.infer<typeof cueDirectionSchema>;
/** Authority-source axis value. */
export type CueSource = z.infer<typeof cueSourceSchema>;
/** Decisiveness axis value. */
export type CueDecisiveness = z.infer<typeof cueDecisivenessSchema>;
/** A composed cue's axes as written in a spec (omitted = default). */
export type CueAxes = z.infer<typeof cueAxesSchema>;
/** Axes with every value present (after defaults). */
export type CompleteCueAxes = Required<CueAxes>;
/** A study's cue: preset, axes or custom text. */
export type CueSpec = z.infer<typeof cueSpecSchema>;
/** Id of a built-in mitigation. */
export type BuiltinMitigationId = z.infer<typeof builtinMitigationIdSchema>;
/** A study's mitigation: built-in or custom. */
export type MitigationSpec = z.infer<typeof mitigationSpecSchema>;

/** Fills omitted axes from `cueAxisDefaults`. */
export function completeCueAxes(axes: CueAxes = {}): CompleteCueAxes {
  return {
    framing: axes.framing ?? cueAxisDefaults.framing,
    form: axes.form ?? cueAxisDefaults.form,
    source: axes.source ?? cueAxisDefaults.source,
    decisiveness: axes.decisiveness ?? cueAxisDefaults.decisiveness,
    strength: axes.strength ?? cueAxisDefaults.strength,
  };
}
