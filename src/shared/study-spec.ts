/**
 * A study spec: the paper's paired design as data (§3.1). The same file the window saves and
 * loads and `cuelab run` takes, as JSON or YAML. Conditions are the uncued control plus the
 * product cues × placements × mitigation sets; the direction policy turns each cued
 * condition into a direction per item once that item's uncued majority is known.
 */
import { z } from 'zod';
import {
  judgeProviderKindSchema,
  providerEntry,
  takesOption,
  toolDialectSchema,
} from './catalogue/providers';
import { cueFamilySchema } from './cue-family';
import { cueSpecSchema, mitigationSpecSchema, placementNameSchema } from './cue-spec';
import { judgeNameSchema } from './judge-names';
import { environmentVariableShape } from './secrets';
import { uncuedKey, uncuedRepeatKey } from './condition-keys';
import { toolBudgetSettingSchema } from './suite-format';

/** Which items of the suite a study judges. */
export const itemFilterSchema = z
  .strictObject({
    ids: z.array(z.string().min(1)).min(1).optional(),
    datasets: z.array(z.string().min(1)).min(1).optional(),
    substrates: z.array(z.string().min(1)).min(1).optional(),
    gold: z
      .array(z.enum(['pass', 'fail']))
      .min(1)
      .optional(),
    /** At most this many items, taken in the seeded order. */
    limit: z.number().int().min(1).optional(),
  })
  .default({});

/**
 * Anthropic extended thinking: `adaptive` (App. R: the Opus-4.7 meta-judge voter's
 * `{"thinking": {"type": "adaptive"}}`) or `enabled` with a token budget.
 */
export const thinkingSchema = z.union([
  z.strictObject({ type: z.literal('adaptive') }),
  z.strictObject({ type: z.literal('enabled'), budgetTokens: z.number().int().min(1024) }),
]);

/** OpenAI reasoning effort (reasoning models only). */
export const reasoningEffortSchema = z.enum(['minimal', 'low', 'medium', 'high']);

/** One judge: a model (or a synthetic persona) with its settings. */
export const studyJudgeSchema = z
  .strictObject({
    /**
     * The judge's name in every table, figure and export: a short id (`sonnet`) or any model id
     * (`anthropic/claude-3-7-sonnet-20250219-thinking-16k`); judge-names.ts has the rule and the
     * safe key (`judgeKey`) derived from it where a token is needed.
     */
    id: judgeNameSchema,
    /** Which provider runs it (catalogue/providers.ts). */
    provider: judgeProviderKindSchema,
    /** The provider's model id; for the synthetic judge, any label. */
    model: z.string().min(1),
    /** Synthetic judge persona (simulation/personas.ts). */
    persona: z.string().min(1).optional(),
    baseUrl: z.url().optional(),
    apiKeyEnv: z.string().regex(environmentVariableShape).optional(),
    /** App. R: 0.7 where accepted. */
    temperature: z.number().min(0).max(2).optional(),
    /** App. R: none on the tool-using judge (provider default); Anthropic needs one, 8192 then. */
    maxTokens: z.number().int().positive().optional(),
    /** Anthropic only: extended / adaptive thinking, sent on every call and stored with the rep. */
    thinking: thinkingSchema.optional(),
    /** OpenAI (and compatible) only: `reasoning_effort`, sent on every call and stored. */
    reasoningEffort: reasoningEffortSchema.optional(),
    timeoutMs: z.number().int().positive().optional(),
    /** OpenAI-compatible only: how the server returns tool calls (default `auto`). */
    dialect: toolDialectSchema.optional(),
    /** Most reps of this judge in flight at once (rate limits). */
    concurrency: z.number().int().min(1).max(256).optional(),
  })
  .refine((judge) => !providerEntry(judge.provider).simulated || judge.persona, {
    message: 'a synthetic judge needs a persona',
    path: ['persona'],
  })
  .refine((judge) => judge.thinking === undefined || takesOption(judge.provider, 'thinking'), {
    message: 'thinking is an Anthropic setting',
    path: ['thinking'],
  })
  .refine(
    (judge) =>
      judge.reasoningEffort === undefined || takesOption(judge.provider, 'reasoningEffort'),
    { message: 'reasoningEffort is an OpenAI setting', path: ['reasoningEffort'] },
  )
  .refine((judge) => judge.dialect === undefined || takesOption(judge.provider, 'dialect'), {
    message: 'dialect is a setting of openai-compatible servers',
    path: ['dialect'],
  })
  .refine((judge) => !providerEntry(judge.provider).baseUrlRequired || judge.baseUrl, {
    message: 'an openai-compatible judge needs a baseUrl',
    path: ['baseUrl'],
  });

/** The mitigation-set name whose mitigated control would collide with the uncued repeat. */
const repeatMitigationName = uncuedRepeatKey.slice(uncuedKey.length + 1);

/** The cued arms: every cue × placement × mitigation set. */
export const armsSchema = z
  .strictObject({
    cues: z.array(cueSpecSchema).default([{ kind: 'preset', preset: 'strong' }]),
    placements: z.array(placementNameSchema).min(1).default(['system']),
    /** Each entry is one set of mitigations applied together; [] = none. */
    mitigations: z.array(z.array(mitigationSpecSchema)).min(1).default([[]]),
    /** Condition keys (see `conditionKey`) to leave out of the product. */
    drop: z.array(z.string()).default([]),
    /**
     * Also run the uncued control once with each non-empty mitigation set (`uncued+MITIGATION`,
     * §3.4's mitigated control), so the mitigations table can offer both control readings.
     */
    mitigatedControl: z.boolean().default(false),
    /**
     * Also run the uncued control a second time (`uncued+repeat`, same reps, fresh draws), so the
     * flips table can set each arm's flips against the rate at which a plain re-run disagrees
     * with the uncued majority ("flips beyond repeat", a test-retest noise floor).
     */
    uncuedRepeat: z.boolean().default(false),
  })
  .refine(
    (arms) =>
      !arms.uncuedRepeat ||
      !arms.mitigations.some(
        (set) => set.map((entry) => entry.id).join('+') === repeatMitigationName,
      ),
    {
      message:
        'a mitigation set named "repeat" would be read as the uncued repeat (uncued+repeat) ' +
        'where its mitigated control is looked up: rename the mitigation or turn off uncuedRepeat',
      path: ['uncuedRepeat'],
    },
  )
  .default({
    cues: [{ kind: 'preset', preset: 'strong' }],
    placements: ['system'],
    mitigations: [[]],
    drop: [],
    mitigatedControl: false,
    uncuedRepeat: false,
  });

/**
 * Which way each cued rep points: `opposite` the item's uncued majority (the paper's design,
 * §3.1), always `severity`, always `leniency`, or `both` (each cued condition runs twice).
 */
export const directionPolicySchema = z.enum(['opposite', 'severity', 'leniency', 'both']);

/** A whole study. */
export const studySpecSchema = z.strictObject({
  name: z.string().min(1),
  suite: z.string().min(1),
  /**
   * The cue families the study's family cues use, as they were when it was created (filled in
   * from the registry then), so the study replays and travels in a bundle without them.
   */
  cueFamilies: z.array(cueFamilySchema).max(100).optional(),
  items: itemFilterSchema,
  judges: z.array(studyJudgeSchema).min(1),
  dimension: z.string().min(1).default('task_success'),
  /**
   * More dimensions judged in the same study (App. G: "spans up to eight evaluation
   * dimensions"; App. H: every judge over the same pool across all of them), so Fig. 17 comes
   * from one study. `dimension` stays the first; each extra one gets its own control and arms.
   */
  dimensions: z.array(z.string().min(1)).min(1).optional(),
  /** Reps per arm (3 in the paper, §3.1). */
  reps: z.number().int().min(1).max(50).default(3),
  /** Harness seed (App. R: 17): item order and every random choice. */
  seed: z.number().int().default(17),
  /**
   * Soft tool-call budget for every item. Absent: the suite's, else App. R's scope (40 on Deep
   * Search and Terminal-Bench 2.0, unbounded on the other datasets).
   */
  toolBudget: toolBudgetSettingSchema.optional(),
  /**
   * Safety settings the paper does not have (App. R: the budget never ends the loop): a hard stop
   * after this many tool results (off unless set) and a max-turn guard (default 200 turns).
   * A rep they end is stored as `budget_exhausted` and counted as such in every table.
   */
  safety: z
    .strictObject({
      hardStop: z.number().int().min(1).optional(),
      maxTurns: z.number().int().min(1).optional(),
    })
    .optional(),
  /** A graded cued rep counts as flipped when it moves at least this many points (App. G). */
  gradedFlipThreshold: z.number().min(1).max(99).default(10),
  arms: armsSchema,
  direction: directionPolicySchema.default('opposite'),
  concurrency: z
    .strictObject({
      /** Reps in flight at once. */
      total: z.number().int().min(1).max(256).default(4),
      /** Containers alive at once. */
      containers: z.number().int().min(1).max(256).default(4),
    })
    .default({ total: 4, containers: 4 }),
  /** Pause the study when its cost reaches this many US dollars. */
  costCapUsd: z.number().positive().optional(),
});

export type StudySpec = z.output<typeof studySpecSchema>;

/** Every dimension a study judges: `dimension` first, then the rest of `dimensions`. */
export function studyDimensions(spec: Pick<StudySpec, 'dimension' | 'dimensions'>): string[] {
  return [...new Set([spec.dimension, ...(spec.dimensions ?? [])])];
}
export type StudySpecInput = z.input<typeof studySpecSchema>;
export type StudyJudge = z.output<typeof studyJudgeSchema>;
export type DirectionPolicy = z.output<typeof directionPolicySchema>;
