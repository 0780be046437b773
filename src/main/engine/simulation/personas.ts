/**
 * Synthetic-judge personas: the parameters of an offline, simulated judge. A persona
 * says how often the judge skips the decisive check when uncued, how strongly a planted cue
 * moves it (a logistic model over the cue's axes, placement and direction — cue-model.ts), by
 * which mechanism it flips (Fig. 5), and how often a cue helps it (App. F).
 *
 * The shipped personas (persona-presets.ts) are calibrated on the paper's four judges; each
 * coefficient there is derived in code from the published number it cites. Researchers edit
 * them with `loadPersonas(overrides)`, which validates every field.
 */
import { z } from 'zod';
import { builtinPersonas } from './persona-presets';

const probability = z.number().min(0).max(1);
const logOdds = z.number().finite();

/**
 * Additive log-odds of deferring, relative to the reference cell: the §3.1 strong cue (belief,
 * declarative, domain expert, "definitely"), in the system prompt (Fig. 2, Table 6), severity
 * direction. Every reference level is 0 in the shipped personas.
 */
export const cueResponseSchema = z.strictObject({
  /** Log-odds of deferring at the reference cell (App. D severity rate ⇒ logit). */
  baseLogOdds: logOdds,
  /** Table 2's 2 × 2 of framing (belief / compliance) × form (declarative / imperative). */
  framingForm: z.strictObject({
    'belief-declarative': logOdds,
    'belief-imperative': logOdds,
    'compliance-declarative': logOdds,
    'compliance-imperative': logOdds,
  }),
  /** Table 3's authority sources. */
  source: z.strictObject({
    'domain expert': logOdds,
    reviewer: logOdds,
    unattributed: logOdds,
    'automated checker': logOdds,
    'prior LLM-judge': logOdds,
  }),
  /** Table 4's decisiveness modalities. */
  decisiveness: z.strictObject({
    definitely: logOdds,
    likely: logOdds,
    appears: logOdds,
    might: logOdds,
  }),
  /** App. E strong vs weak; §3.2 placebo and null-source controls. */
  strength: z.strictObject({
    strong: logOdds,
    weak: logOdds,
    placebo: logOdds,
    'null-source': logOdds,
  }),
  /** Table 8's five placements. */
  placement: z.strictObject({
    system: logOdds,
    user: logOdds,
    assistant: logOdds,
    'assistant-x5': logOdds,
    'assistant-x25': logOdds,
  }),
  /** App. D: asserting failure (severity) vs success (leniency). */
  direction: z.strictObject({ severity: logOdds, leniency: logOdds }),
});

/** Shares of harmful flips by mechanism (§3.3, Fig. 5); they must sum to 1. */
export const mechanismMixSchema = z
  .strictObject({
    /** Same investigation, verdict reversed against its own stated finding. */
    overTrust: probability,
    /** Cites evidence no tool returned. */
    hallucination: probability,
    /** Stops at the first cue-corroborating check. */
    underInvestigation: probability,
  })
  .refine(
    (mix) => Math.abs(mix.overTrust + mix.hallucination + mix.underInvestigation - 1) < 1e-6,
    {
      message: 'overTrust + hallucination + underInvestigation must sum to 1',
    },
  );

/** A synthetic judge persona. */
export const personaSchema = z.strictObject({
  /** Short id used in study specs (`judge.persona`) and records. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and "-" only'),
  /** Shown in tables and charts, always next to the "simulated" label. */
  label: z.string().min(1),
  description: z.string().default(''),
  /** The paper judge whose magnitudes the persona reproduces, if any. */
  calibratedOn: z.string().optional(),
  /**
   * Every probability of a persona is item-level, as the paper measures it (after the majority
   * of three reps, §3.1); item-calibration.ts turns it into a per-rep draw.
   * Uncued: probability of skipping the item's decisive probe (the source of uncued errors).
   */
  skipDecisiveProbability: probability,
  /**
   * Share of reps that follow the item's shared template draws (item-calibration.ts); the rest
   * draw on their own. CueLab's model of between-rep agreement: the paper prints none.
   */
  repCorrelation: probability.default(0.8),
  /**
   * Variance reduction for simulated pilots, off by default: a mitigated arm reuses the random
   * draws of the unmitigated arm of the same cue (common random numbers), so an item can flip
   * after a mitigation only if it flipped before (McNemar's c = 0) and a pilot looks far better
   * powered than a real study. By default every arm draws on its own.
   */
  coupledMitigationArms: z.boolean().default(false),
  /**
   * Fig. 3: tool calls a judge spends re-checking its own findings against a contradicting cue
   * before it defers anyway. Frontier judges investigate harder and flip more (r = +0.21,
   * +0.23); CueLab's reading of that figure, not a number the paper gives.
   */
  recheckBeforeDeferring: z.number().int().min(0).max(5).default(0),
  cueResponse: cueResponseSchema,
  harmfulMechanisms: mechanismMixSchema,
  /** App. F: how a cue that points toward the truth helps, at the reference cell. */
  helpful: z.strictObject({
    /** On an item it got wrong by skipping the decisive check: the cue makes it run the check. */
    betterInvestigationProbability: probability,
    /** Otherwise: it adopts the cue's verdict without new evidence ("lucky deference"). */
    luckyDeferenceProbability: probability,
  }),
});

/** A validated persona. */
export type Persona = z.output<typeof personaSchema>;
/** The harmful-flip mechanism mix of a persona. */
export type MechanismMix = z.output<typeof mechanismMixSchema>;
/** The cue-response coefficients of a persona. */
export type CueResponse = z.output<typeof cueResponseSchema>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep-merges `edit` into `base`: objects merge key by key, anything else replaces. */
export function mergeEdit(base: unknown, edit: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(edit)) return edit;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(edit)) merged[key] = mergeEdit(base[key], value);
  return merged;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.map(String).join('.') || '(persona)'}: ${issue.message}`)
    .join('; ');
}

/**
 * The shipped personas with a researcher's edits applied. `overrides` is JSON text or a parsed
 * value: an object from persona id to a partial persona (deep-merged into the shipped one) or,
 * for a new id, a complete persona. Throws an Error naming the persona and field on any
 * invalid value, unknown field, or a mechanism mix that does not sum to 1.
 */
export function loadPersonas(overrides?: unknown): Persona[] {
  let edits: unknown = overrides ?? {};
  if (typeof edits === 'string') {
    try {
      edits = JSON.parse(edits) as unknown;
    } catch (error) {
      throw new Error(`Persona overrides are not valid JSON: ${(error as Error).message}`);
    }
  }
  if (!isPlainObject(edits)) {
    throw new Error('Persona overrides must be an object from persona id to persona fields.');
  }
  const byId = new Map<string, unknown>(builtinPersonas().map((persona) => [persona.id, persona]));
  for (const [id, edit] of Object.entries(edits)) {
    if (!isPlainObject(edit)) throw new Error(`Persona "${id}": the override must be an object.`);
    const base = byId.get(id);
    byId.set(id, base === undefined ? { id, ...edit } : mergeEdit(base, edit));
  }
  return [...byId.entries()].map(([id, candidate]) => {
    const parsed = personaSchema.safeParse(candidate);
    if (!parsed.success) {
      const isNew = !builtinPersonas().some((persona) => persona.id === id);
      const hint = isNew ? ' (a new persona must give every field)' : '';
      throw new Error(`Persona "${id}" is invalid${hint}: ${describeIssues(parsed.error)}`);
    }
    if (parsed.data.id !== id) {
      throw new Error(`Persona "${id}": its id field says "${parsed.data.id}".`);
    }
    return parsed.data;
  });
}

/** The persona with this id; throws, listing the known ids, when there is none. */
export function findPersona(personas: readonly Persona[], id: string): Persona {
  const found = personas.find((persona) => persona.id === id);
  if (!found) {
    const known = personas.map((persona) => persona.id).join(', ');
    throw new Error(`Unknown synthetic persona "${id}". Known personas: ${known}.`);
  }
  return found;
}
